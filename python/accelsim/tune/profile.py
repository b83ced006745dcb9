"""The hardware profile: one JSON document per GPU run of the suite.

Schema (``accelsim.hw-profile/1``; docs/tuning.md documents every field)::

    {"schema": "accelsim.hw-profile/1",
     "device": {"name": ..., "sm_count": ..., ...},        # facts the run read from the GPU
     "source": {"kind": "collect" | "reference-output", ...},
     "measurements": {NAME: {"value": float | null, "unit": str,
                             "reps": int | null, "samples": [[x, y], ...] | null,
                             "origin": str}}}

``value`` is null only for curves (``samples`` hold them). Names are the
suite's (``accelsim.microbench.suite``); units are the declared ones.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from accelsim._files import refuse_non_file
from accelsim.errors import AccelsimError

SCHEMA = "accelsim.hw-profile/1"


class ProfileFormatError(AccelsimError, ValueError):
    """A hardware profile file is not in the documented form; names the file and field."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.path = path


@dataclass
class Measured:
    value: float | None
    unit: str
    reps: int | None = None
    samples: list | None = None
    origin: str = ""

    def to_dict(self) -> dict:
        return {"value": self.value, "unit": self.unit, "reps": self.reps, "samples": self.samples,
                "origin": self.origin}


@dataclass
class HwProfile:
    device: dict
    measurements: dict[str, Measured]
    source: dict = field(default_factory=dict)

    def value(self, name: str) -> float | None:
        m = self.measurements.get(name)
        return None if m is None else m.value

    def to_dict(self) -> dict:
        return {"schema": SCHEMA, "device": self.device, "source": self.source,
                "measurements": {k: m.to_dict() for k, m in self.measurements.items()}}

    def save(self, path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=2, sort_keys=False) + "\n")
        return path

    def frame(self):
        import pandas as pd

        return pd.DataFrame([{"name": k, "value": m.value, "unit": m.unit, "reps": m.reps,
                              "origin": m.origin} for k, m in self.measurements.items()])

    @classmethod
    def from_dict(cls, data: dict, where: str = "<dict>") -> "HwProfile":
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ProfileFormatError(f"{where}: not a hardware profile (field 'schema' must be {SCHEMA!r})")
        for key, kind in (("device", dict), ("measurements", dict)):
            if not isinstance(data.get(key), kind):
                raise ProfileFormatError(f"{where}: field {key!r} must be an object")
        out = {}
        for name, m in data["measurements"].items():
            out[name] = _measured(m, f"{where}: measurements.{name}")
        return cls(dict(data["device"]), out, dict(data.get("source") or {}))


def _measured(m, where: str) -> Measured:
    if not isinstance(m, dict):
        raise ProfileFormatError(f"{where}: must be an object")
    value = m.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or not math.isfinite(value)):
        raise ProfileFormatError(f"{where}.value: a finite number or null, got {value!r}")
    if not isinstance(m.get("unit"), str):
        raise ProfileFormatError(f"{where}.unit: a string is required")
    reps = m.get("reps")
    if reps is not None and (isinstance(reps, bool) or not isinstance(reps, int)):
        raise ProfileFormatError(f"{where}.reps: an integer or null, got {reps!r}")
    samples = m.get("samples")
    if samples is not None and not (isinstance(samples, list)
                                    and all(isinstance(s, list) and len(s) == 2 for s in samples)):
        raise ProfileFormatError(f"{where}.samples: a list of [x, y] pairs or null")
    if value is None and samples is None:
        raise ProfileFormatError(f"{where}: needs a value or samples")
    return Measured(None if value is None else float(value), m["unit"], reps, samples,
                    str(m.get("origin", "")))


def load_profile(path) -> HwProfile:
    """Reads a profile written by ``collect`` / ``import_reference`` (or by hand)."""
    path = Path(path)
    refuse_non_file(path, "hardware profile file", ProfileFormatError)
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise ProfileFormatError(f"{path}: cannot read the hardware profile: {exc.strerror}",
                                 str(path)) from None
    except UnicodeDecodeError as exc:
        raise ProfileFormatError(f"{path}: not a JSON text file (byte {exc.start} is not UTF-8)",
                                 str(path)) from None
    except json.JSONDecodeError as exc:
        raise ProfileFormatError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    return HwProfile.from_dict(data, str(path))
