"""The run files of a sweep directory, each named with a checksum of its own
bytes: ``runs/<run key>.<digest>.parquet`` (a finished run) or
``runs/<run key>.failed.<digest>.parquet`` (a failed one).

A run file is trusted only when its bytes hash to the digest in its name
(BLAKE2b, 128 bits) and the run it says it holds (``accelsim.sweep`` schema
metadata) is the run its name says. That catches a file cut short, bytes
flipped inside it (Parquet would read some of those as other numbers or NaN),
a zero-length or garbage file, and another run's file put in its place. The
checksum is in the name, so a run still appears with one ``os.replace``: a
reader sees the whole file, with its checksum, or nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

DIGEST_BYTES = 16
_FAILED = "failed"


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=DIGEST_BYTES).hexdigest()


@dataclass(frozen=True)
class RunFile:
    key: str
    ok: bool                 # a finished run (else a failed one, which a resume reruns)
    digest: str | None       # None: written before run files carried a checksum
    path: Path


def file_name(key: str, ok: bool, data: bytes) -> str:
    return f"{key}.{digest(data)}.parquet" if ok else f"{key}.{_FAILED}.{digest(data)}.parquet"


def parse_name(path: Path) -> RunFile | None:
    """The run file a name describes; None for anything else (temp files, ...)."""
    parts = path.name.split(".")
    if len(parts) < 2 or parts[-1] != "parquet" or path.name.startswith("."):
        return None
    key, middle = parts[0], parts[1:-1]
    ok = not middle or middle[0] != _FAILED
    rest = middle if ok else middle[1:]
    if not rest:
        return RunFile(key, ok, None, path)
    if len(rest) == 1 and len(rest[0]) == 2 * DIGEST_BYTES:
        return RunFile(key, ok, rest[0], path)
    return None


def scan(runs: Path) -> dict[str, list[RunFile]]:
    """Every run file of a ``runs`` folder, by run key (one listing)."""
    index: dict[str, list[RunFile]] = {}
    try:
        entries = list(os.scandir(runs))
    except FileNotFoundError:
        return index
    for entry in entries:
        found = parse_name(Path(entry.path))
        if found is not None:
            index.setdefault(found.key, []).append(found)
    return index


def read_verified(run: RunFile):
    """(Arrow table, None) for a file that verifies, else (None, why not)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if run.digest is None:
        return None, "it was stored without a checksum (by an older accelsim)"
    try:
        data = run.path.read_bytes()
    except OSError as exc:
        return None, f"it cannot be read ({exc.strerror})"
    if digest(data) != run.digest:
        return None, f"its {len(data):,} bytes do not match their checksum"
    try:  # (ParquetFile: read_table takes 10x the time per small file)
        table = pq.ParquetFile(pa.BufferReader(data)).read()
    except Exception as exc:  # noqa: BLE001 - a file that verified but does not parse
        return None, f"it is not a readable Parquet file ({exc})"
    meta = (table.schema.metadata or {}).get(b"accelsim.sweep", b"{}")
    try:
        holds = json.loads(meta).get("run")
    except (ValueError, AttributeError):
        holds = None
    if holds != run.key:
        return None, f"it holds run {holds!r}, not this one"
    return table, None
