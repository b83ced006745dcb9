"""The fuzz targets, one per parser. Each builds an input deterministically
from an RNG (so a finding is reproduced from target, seed and index alone)
and runs the parser the way a user reaches it. Acceptable outcomes: success
or an ``accelsim.AccelsimError``; anything else is a finding."""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from accelsim.devtools.fuzz import seeds
from accelsim.devtools.fuzz.mutate import INTERESTING, mutate, mutate_addresses


@dataclass(frozen=True)
class Target:
    name: str
    doc: str
    make: Callable[[random.Random], Any]
    run: Callable[[Any, Path], None]
    slow: bool = False   # simulates: far fewer inputs per second


# -- kernel traces (C++ reader through the bindings) ---------------------------------
@functools.lru_cache(maxsize=1)
def _registry():
    from accelsim import _core
    from accelsim._paths import data_dir

    return _core.IsaRegistry(str(data_dir() / "isa"))


def _read_kernel(path: Path, max_blocks: int = 64) -> None:
    from accelsim import _core

    reader = _core.KernelTrace(str(path), _registry())
    reader.info  # noqa: B018 - converting the header is part of the target
    for _ in range(max_blocks):
        if reader.next_block() is None:
            break
    reader.rewind()
    reader.counts()


def make_trace_body(rng: random.Random) -> bytes:
    header, body = rng.choice(seeds.kernel_traces())
    return header + mutate(rng, body)


def make_trace_header(rng: random.Random) -> bytes:
    header, body = rng.choice(seeds.kernel_traces())
    return mutate(rng, header) + body


def run_kernel_file(data: bytes, scratch: Path) -> None:
    path = scratch / "kernel-1.traceg"
    path.write_bytes(data)
    _read_kernel(path)


# -- kernelslist.g (command list, then every kernel's header) ------------------------
def _kernel_files(scratch: Path) -> None:
    if not (scratch / "kernel-2.traceg").exists():
        for i, (header, body) in enumerate(seeds.kernel_traces()[:2], start=1):
            (scratch / f"kernel-{i}.traceg").write_bytes(header + body)


def make_kernelslist(rng: random.Random) -> bytes:
    return mutate(rng, rng.choice(seeds.kernelslists()), max_edits=3)


def run_kernelslist(data: bytes, scratch: Path) -> None:
    from accelsim import open_trace

    _kernel_files(scratch)
    path = scratch / "kernelslist.g"
    path.write_bytes(data)
    trace = open_trace(path)
    trace.totals()
    trace.commands  # noqa: B018


# -- YAML config files, dict configs and with_overrides -------------------------------
def make_yaml(rng: random.Random) -> bytes:
    return mutate(rng, rng.choice(seeds.yaml_configs()), max_edits=3)


def run_yaml(data: bytes, scratch: Path) -> None:
    from accelsim import load_config

    path = scratch / "gpu.yaml"
    path.write_bytes(data)
    load_config(path)


@functools.lru_cache(maxsize=1)
def _keys() -> tuple[tuple[str, str], ...]:
    from accelsim.config.params import STRUCTURED_KEYS, param_specs

    return tuple((n, s.kind) for n, s in param_specs().items()) + tuple(
        (k, "structured") for k in STRUCTURED_KEYS)


_UNITS = {"cycles": ["cycles", "cycle", ""], "bytes": ["B", "KiB", "MiB", "KB", "GB", "b", ""],
          "MHz": ["MHz", "GHz", "kHz", "Hz", ""], "percent": ["%", ""]}


def _value(rng: random.Random, kind: str):
    pick = rng.random()
    if pick < 0.3:
        return rng.choice([0, -1, 1, 2**31, 2**32, 2**63, 2**64, -2**64, 10**30, 0.5, -0.0,
                           float("nan"), float("inf"), True, False, None])
    if pick < 0.5:
        return rng.choice(INTERESTING)
    if pick < 0.6:
        return rng.choice([[], [1, 2], {}, {"name": "x"}, [{"name": "u"}], ("a",), b"\xff"])
    number = rng.choice([0, 1, 3, 7, 128, 1000, 65536, 2**40, -5]) * rng.choice([1, 1, 1.5])
    return f"{number} {rng.choice(_UNITS.get(kind, ['']))}".strip()


def make_dict(rng: random.Random) -> dict:
    keys = _keys()
    out = {}
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.1:
            name, kind = rng.choice(["l1d_sizee", "", "name", "base", "Sm_Count", "x" * 80, 7,
                                     None, ("sm_count",)]), ""
        else:
            name, kind = rng.choice(keys)
        out[name] = _value(rng, kind)
    return out


@functools.lru_cache(maxsize=1)
def _qv100():
    from accelsim import load_config

    return load_config("QV100")


def run_dict(values: dict, scratch: Path) -> None:
    """Dicts reach the core two ways: ``with_overrides`` and ``Simulator(dict)``."""
    from accelsim import Simulator

    if len(values) % 2:
        Simulator(_qv100().with_overrides(values))
    else:
        Simulator(values)


# -- GPGPU-Sim config import ----------------------------------------------------------
def make_gpgpusim(rng: random.Random) -> tuple[bytes, bytes]:
    g, t = rng.choice(seeds.gpgpusim_configs())
    if rng.random() < 0.8:
        return mutate(rng, g), t
    return g, mutate(rng, t)


def run_gpgpusim(files: tuple[bytes, bytes], scratch: Path) -> None:
    from accelsim import import_gpgpusim_config

    g, t = scratch / "gpgpusim.config", scratch / "trace.config"
    g.write_bytes(files[0])
    t.write_bytes(files[1])
    import_gpgpusim_config(g, t)


# -- profiler CSV exports -------------------------------------------------------------
def _profile_maker(kind: str):
    def make(rng: random.Random) -> bytes:
        return mutate(rng, rng.choice(seeds.profiler_csvs(kind)))
    return make


def run_profile(data: bytes, scratch: Path) -> None:
    from accelsim.correlation import read_profile

    path = scratch / "profile.csv"
    path.write_bytes(data)
    read_profile(path)


# -- simulations of damaged inputs (slow; bounded by a cycle budget) ------------------
def make_trace_sim(rng: random.Random) -> bytes:
    """Half the inputs keep a valid trace and only get a hostile address."""
    header, body = rng.choice(seeds.kernel_traces())
    if rng.random() < 0.5:
        return header + mutate_addresses(rng, body)
    return header + mutate(rng, body)


def run_trace_sim(data: bytes, scratch: Path) -> None:
    from accelsim import Simulator

    (scratch / "kernel-1.traceg").write_bytes(data)
    (scratch / "kernelslist.g").write_bytes(b"kernel-1.traceg\n")
    Simulator(_qv100()).run(scratch / "kernelslist.g", max_cycles=200_000)


def run_kernelslist_sim(data: bytes, scratch: Path) -> None:
    from accelsim import Simulator

    _kernel_files(scratch)
    (scratch / "kernelslist.g").write_bytes(data)
    Simulator(_qv100()).run(scratch / "kernelslist.g", max_cycles=200_000)


def _ptx(name: str, module: str = "ptx_targets"):
    """A function of a PTX-side target module, imported when called (the worker may not need PTX)."""
    def call(*args):
        import importlib

        return getattr(importlib.import_module(f"accelsim.devtools.fuzz.{module}"), name)(*args)
    return call


TARGETS = {t.name: t for t in [
    Target("trace_line", "instruction lines of a kernel trace (C++ reader)", make_trace_body,
           run_kernel_file),
    Target("trace_header", "kernel trace header (C++ reader)", make_trace_header, run_kernel_file),
    Target("kernelslist", "kernelslist.g command list (open_trace)", make_kernelslist,
           run_kernelslist),
    Target("yaml_config", "YAML config files (load_config)", make_yaml, run_yaml),
    Target("dict_config", "dict configs (with_overrides, Simulator(dict))", make_dict, run_dict),
    Target("gpgpusim_config", "GPGPU-Sim gpgpusim.config + trace.config import", make_gpgpusim,
           run_gpgpusim),
    Target("nsight_csv", "Nsight Compute --csv --page raw reader", _profile_maker("nsight"),
           run_profile),
    Target("nvprof_csv", "nvprof --csv reader", _profile_maker("nvprof"), run_profile),
    Target("trace_sim", "simulating a damaged trace or hostile addresses (cycle budget 200k)",
           make_trace_sim,
           run_trace_sim, slow=True),
    Target("kernelslist_sim", "simulating a damaged kernelslist (cycle budget 200k)",
           make_kernelslist, run_kernelslist_sim, slow=True),
    Target("ptx_parse", "PTX modules (C++ parser, as Module reads them)", _ptx("make_ptx"), _ptx("run_ptx_parse")),
    Target("cuda_fatbin", "CUDA fat binaries in a program (the CUDA runtime's reader)",
           _ptx("make_fatbin", "fatbin_target"), _ptx("run_fatbin", "fatbin_target")),
    Target("ptx_run", "damaged PTX parsed, launched and emulated (20k warp instructions)", _ptx("make_ptx"),
           _ptx("run_ptx_run"), slow=True),
    Target("ptx_emulator", "random valid kernels emulated, checked against a NumPy reference", _ptx("make_gen"),
           _ptx("run_gen"), slow=True),
]}


def input_for(target: str, seed: int, index: int):
    """The input number ``index`` of ``target`` under ``seed`` (reproducible)."""
    return TARGETS[target].make(random.Random(f"{seed}:{target}:{index}"))


def render(value, limit: int = 4000) -> str:
    """An input as text for a report (bytes shown as Python literals)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
