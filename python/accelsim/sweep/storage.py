"""A sweep's directory: what was asked for (``sweep.json``) and one Parquet
file per finished run (a point on one workload), written atomically.

    OUT/sweep.json                        base config, workloads, kernels, max_cycles,
                                          and every point ever asked for (by key)
    OUT/runs/<run key>.<digest>.parquet   that run's kernel rows (run_files.py)
    OUT/.lock                             held while a sweep writes here

A run file appears only complete (temp file, then ``os.replace``), so a
sweep killed at any moment leaves finished runs intact and nothing half
written that a resume would trust; its name carries a checksum of its bytes,
verified whenever it is read (a resume recomputes a run that fails, a load
leaves it out and says so). A failed run is stored as
``<run key>.failed.<digest>.parquet``; a resume reruns it. The run key hashes the point key and the
workload name; the base config, workloads, kernel selection and cycle budget
are fixed per directory (a sweep asking for other ones is refused), while new
points are simply added: extending a grid reuses every stored point.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

from accelsim.errors import ConfigError
from accelsim.sweep.points import Point, fingerprint
from accelsim.sweep.run_files import RunFile, file_name, read_verified, scan

MANIFEST = "sweep.json"
RUNS = "runs"
VERSION = 1
# What must match for stored runs to be reused (the rest of the manifest grows).
FIXED = ("config", "workloads", "kernels", "max_cycles")
# Columns a run file carries that are not simulation results (dropped from the
# sweep table unless timings are asked for).
TIMING_COLUMNS = ("wall_s", "sim_wall_s", "worker")


def run_key(point_key: str, workload: str) -> str:
    return fingerprint({"point": point_key, "workload": workload})


class SweepStore:
    """Open with :meth:`open` (takes the directory's lock; ``close`` frees it)."""

    def __init__(self, root: Path, manifest: dict, lock_fd: int | None):
        self.root = root
        self.manifest = manifest
        self._lock_fd = lock_fd
        self._index = scan(root / RUNS)  # run key -> its files (kept up to date by write_run)

    # -- opening -----------------------------------------------------------
    @classmethod
    def open(cls, root, fixed: dict, params: list[str], points: list[Point],
             resume: bool = True) -> "SweepStore":
        root = Path(root)
        if root.exists() and not root.is_dir():
            raise ConfigError(f"{root}: exists and is not a folder (a sweep stores its runs in "
                              "a folder: give a new or an existing sweep folder as out)",
                              key="out", path=str(root))
        root.mkdir(parents=True, exist_ok=True)
        lock_fd = _lock(root)
        try:
            old = read_manifest(root) if (root / MANIFEST).is_file() else None
            if old is not None and resume:
                _check_same(root, old, fixed)
                manifest = old
            else:
                shutil.rmtree(root / RUNS, ignore_errors=True)
                manifest = {"version": VERSION, **fixed, "params": [], "points": {}}
            (root / RUNS).mkdir(exist_ok=True)
            for stale in (root / RUNS).glob(".*.tmp"):
                stale.unlink(missing_ok=True)  # left by a sweep killed mid-write
            manifest["params"] += [p for p in params if p not in manifest["params"]]
            for p in points:
                manifest["points"].setdefault(p.key, {"values": p.values, "raw": p.raw})
            _atomic_write(root / MANIFEST, json.dumps(manifest, indent=1, default=str).encode())
        except BaseException:
            _unlock(lock_fd)
            raise
        return cls(root, manifest, lock_fd)

    def close(self) -> None:
        _unlock(self._lock_fd)
        self._lock_fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- runs ---------------------------------------------------------------
    def stored(self, key: str) -> tuple[str, str | None]:
        """("ok" | "failed" | "missing" | "corrupt", why it is corrupt) for one run:
        its file is read and verified (run_files.read_verified)."""
        files = self._index.get(key, [])
        if not files:
            return "missing", None
        problems = []
        for run in files:
            table, why = read_verified(run)
            if table is not None:
                return ("ok" if run.ok else "failed"), None
            problems.append(why)
        return "corrupt", "; ".join(str(p) for p in problems)

    def write_run(self, key: str, point: Point, workload: str, outcome: dict) -> None:
        """Store one run's outcome (see tasks.run_task) atomically: a reader
        sees the whole file or none. (No fsync: a process killed at any point
        leaves the page cache intact; a file torn by a power cut fails its
        checksum and is recomputed.)"""
        import pyarrow as pa
        import pyarrow.parquet as pq

        ok = outcome["status"] == "ok"
        table = run_table(point.key, workload, outcome)
        meta = {b"accelsim.sweep": json.dumps({"run": key, "point": point.values,
                                               "workload": workload}, default=str).encode()}
        sink = pa.BufferOutputStream()
        pq.write_table(table.replace_schema_metadata(meta), sink)
        data = sink.getvalue().to_pybytes()
        path = self.root / RUNS / file_name(key, ok, data)
        tmp = self.root / RUNS / f".{key}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, path)
        for old in self._index.get(key, []):  # earlier outcomes of this run, damaged copies
            if old.path != path:
                old.path.unlink(missing_ok=True)
        self._index[key] = [RunFile(key, ok, path.name.split(".")[-2], path)]

    def frame(self, point_keys: list[str], workloads: list[str], params: list[str],
              timings: bool = False):
        """The sweep table of these points on these workloads (stored runs only)."""
        return assemble(self.root, self.manifest, point_keys, workloads, params, timings)


def run_table(point_key: str, workload: str, outcome: dict):
    """One run as an Arrow table: its kernel rows, or one row with the error."""
    import pyarrow as pa

    if outcome["status"] == "ok":
        cols = dict(outcome["kernels"])
        keep = [i for i, s in enumerate(cols.pop("skipped", [False] * len(cols["id"]))) if not s]
        cols = {_RENAME.get(k, k): [v[i] for i in keep] for k, v in cols.items()}
        n = len(keep)
        data = {"point_key": [point_key] * n, "workload": [workload] * n, **cols,
                "status": ["ok"] * n, "error": pa.nulls(n, pa.string())}
    else:
        n = 1
        data = {"point_key": [point_key], "workload": [workload], "status": ["error"],
                "error": [outcome["error"]]}
    data["wall_s"] = pa.array([outcome.get("wall_s")] * n, pa.float64())
    data["sim_wall_s"] = pa.array([outcome.get("sim_wall_s")] * n, pa.float64())
    data["worker"] = pa.array([outcome.get("worker")] * n, pa.string())
    return pa.table(data)


# Kernel-table names that would be ambiguous in a table of many runs (a
# kernel's own status, where the kernel table has one, is not the run's).
_RENAME = {"id": "kernel_id", "name": "kernel_name", "status": "kernel_status"}


def read_manifest(root) -> dict:
    path = Path(root) / MANIFEST
    if not path.is_file():
        raise ConfigError(f"{root}: not a sweep directory (no {MANIFEST})", path=str(root))
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: unreadable sweep manifest: {exc}", path=str(path)) from None
    if not isinstance(manifest, dict) or manifest.get("version") != VERSION:
        raise ConfigError(f"{path}: not a sweep manifest of this accelsim (version "
                          f"{manifest.get('version') if isinstance(manifest, dict) else '?'})",
                          path=str(path))
    return manifest


def _check_same(root: Path, old: dict, new: dict) -> None:
    """Refuse to mix runs of different base configs / workloads / budgets."""
    problems = []
    for field in FIXED:
        a: Any = old.get(field)
        b: Any = new.get(field)
        if json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str):
            continue
        if field == "config":
            keys = sorted(k for k in set(a["values"]) | set(b["values"])
                          if a["values"].get(k) != b["values"].get(k))
            shown = ", ".join(f"{k}: {a['values'].get(k)!r} -> {b['values'].get(k)!r}"
                              for k in keys[:5])
            more = f" and {len(keys) - 5} more" if len(keys) > 5 else ""
            problems.append(f"the base config differs ({shown}{more})" if keys
                            else "the base config's name differs")
        else:
            problems.append(f"{field} differs ({a!r} -> {b!r})")
    if problems:
        raise ConfigError(f"{root} holds a sweep whose " + "; ".join(problems)
                          + ". Its stored runs would not be comparable: use another out "
                          "directory, or resume=False (--no-resume) to replace them",
                          path=str(root))


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _lock(root: Path) -> int:
    import fcntl

    fd = os.open(root / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise ConfigError(f"{root}: another sweep is writing here ({holder})",
                              path=str(root)) from None
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
    return fd


def _unlock(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the flock


def assemble(root: Path, manifest: dict, point_keys: list[str], workloads: list[str],
             params: list[str], timings: bool = False):
    """One row per point x workload x kernel (one row for a failed run), in
    point, workload, kernel order; the swept values as columns. Runs whose
    file fails verification are left out and listed in ``attrs["unverified"]``
    as (point, workload, why)."""
    import pyarrow as pa

    files = scan(Path(root) / RUNS)
    tables, index, unverified = [], [], []
    for i, pkey in enumerate(point_keys):
        for workload in workloads:
            table, why = _read_run(files.get(run_key(pkey, workload), []))
            if why is not None:
                unverified.append((i, workload, why))
            if table is not None:
                tables.append(table.replace_schema_metadata(None))
                index.append(pa.array([i] * table.num_rows, pa.int64()))
    if not tables:
        import pandas as pd

        empty = pd.DataFrame(columns=["point", *params, "workload", "kernel_id", "kernel_name",
                                      "status", "error"])
        empty.attrs["unverified"] = unverified
        return empty
    table = pa.concat_tables(tables, promote_options="default")
    frame = table.to_pandas()
    # A kernel column named like a swept parameter (l1d_size: the adaptive L1
    # size a kernel got) yields to the parameter, renamed kernel_*.
    frame = frame.rename(columns={p: f"kernel_{p}" for p in params if p in frame})
    points = pa.concat_arrays(index).to_numpy()
    frame.insert(0, "point", points)
    for n, name in enumerate(params):
        by_point = [manifest["points"][k]["values"].get(name, _base_value(manifest, name))
                    for k in point_keys]
        frame.insert(1 + n, name, [by_point[p] for p in points])
    frame = frame.drop(columns="point_key")
    last = ["status", "error", *TIMING_COLUMNS]
    frame = frame[[c for c in frame.columns if c not in last] + last]
    if not timings:
        frame = frame.drop(columns=list(TIMING_COLUMNS))
    frame.attrs["unverified"] = unverified
    return frame


def _read_run(files: list[RunFile]):
    """(table, None) for a stored run (ok or failed) whose file verifies;
    (None, None) for a run never stored; (None, why) for one that fails."""
    problems = []
    for run in files:
        table, why = read_verified(run)
        if table is not None:
            return table, None
        problems.append(why)
    return None, ("; ".join(str(p) for p in problems) if problems else None)


def _base_value(manifest: dict, name: str):
    return manifest["config"]["values"].get(name)
