"""A stored run is trusted only when its file verifies (a checksum of its bytes
in its name, the run it holds in its metadata): damaged files are recomputed on
resume and left out of a load, and each says so. A Dask worker killed mid-sweep
costs one retry of the run it had, nothing else."""
from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest

import accelsim
import sweep_helpers
from sweep_helpers import VICTIM, make_workloads

SMALL = {"icnt_latency": [4, 8], "scheduler": ["lrr", "gto"]}  # 4 points x 2 workloads


@pytest.fixture(scope="module")
def workloads(tmp_path_factory):
    return make_workloads(tmp_path_factory.mktemp("integrity-workloads"))


@pytest.fixture(scope="module")
def reference(workloads):
    return accelsim.sweep(workloads, "QV100", SMALL, engine="serial", progress=False)


def _run_files(out: Path) -> list[Path]:
    return sorted((out / "runs").glob("*.parquet"))


def _truncate(path, others):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _flip_inside(path, others):
    data = bytearray(path.read_bytes())
    for at in range(len(data) // 3, len(data) // 3 + 8):  # a data page, not the footer
        data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def _another_runs_bytes(path, others):
    path.write_bytes(others[0].read_bytes())


def _another_run_renamed(path, others):
    """Another run's file, renamed to this run's key with a checksum that
    matches its (other) bytes: only the metadata can tell."""
    donor = others[0]
    path.unlink()
    key = path.name.split(".")[0]
    donor_digest = donor.name.split(".")[-2]
    (path.parent / f"{key}.{donor_digest}.parquet").write_bytes(donor.read_bytes())


def _zero_length(path, others):
    path.write_bytes(b"")


def _garbage(path, others):
    path.write_bytes(os.urandom(path.stat().st_size))


def _without_checksum(path, others):
    """A run file as an accelsim without checksums named it."""
    path.rename(path.parent / (path.name.split(".")[0] + ".parquet"))


DAMAGE = [_truncate, _flip_inside, _another_runs_bytes, _another_run_renamed, _zero_length,
          _garbage, _without_checksum]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__.strip("_"))
def test_a_damaged_run_is_left_out_of_a_load_and_recomputed_on_resume(workloads, reference,
                                                                      tmp_path, damage):
    out = tmp_path / "out"
    accelsim.sweep(workloads, "QV100", SMALL, out=out, engine="serial", progress=False)
    files = _run_files(out)
    assert len(files) == 8 and all(len(f.name.split(".")) == 3 for f in files)
    victim, others = files[3], files[:3] + files[4:]
    untouched = {f.name: f.stat().st_mtime_ns for f in others}
    damage(victim, others)

    with pytest.warns(accelsim.AccelsimWarning, match="1 stored run.* failed verification and "
                                                      "are left out of the table"):
        loaded = accelsim.sweep.load_sweep(out)
    assert loaded.attrs["missing_runs"] == 1 and len(loaded.attrs["unverified"]) == 1
    assert len(loaded) == len(reference) - 1
    assert loaded["cycles"].notna().all()  # no NaN rows from a misread file

    ran = []
    with pytest.warns(accelsim.AccelsimWarning, match="failed verification and are recomputed"):
        resumed = accelsim.sweep(workloads, "QV100", SMALL, out=out, engine="serial",
                                 progress=ran.append)
    assert len(ran) == 1  # the damaged run alone
    assert resumed.attrs["recomputed_unverified"] == 1
    pd.testing.assert_frame_equal(resumed, reference)
    assert {f.name: f.stat().st_mtime_ns for f in _run_files(out) if f.name in untouched} \
        == untouched
    assert len(_run_files(out)) == 8  # the damaged copy is gone
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.testing.assert_frame_equal(accelsim.sweep.load_sweep(out), reference)


def test_cli_reports_the_recomputed_runs(workloads, tmp_path):
    import subprocess
    import sys

    spec = tmp_path / "spec.yaml"
    spec.write_text(f"workloads: {{vecadd: {workloads['vecadd']}}}\nconfig: QV100\n"
                    "grid: {icnt_latency: [4, 8, 16]}\n")
    cmd = [sys.executable, "-m", "accelsim", "sweep", str(spec), "--engine", "serial",
           "--no-progress"]
    first = subprocess.run(cmd, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    for path in _run_files(tmp_path / "spec.sweep")[:2]:
        _flip_inside(path, [])
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert "3 points, 0 failed runs, 2 recomputed (their stored files failed verification)" \
        in again.stdout
    warning = [ln for ln in again.stderr.splitlines() if "warning" in ln]
    assert len(warning) == 1 and "2 stored run(s) failed verification" in warning[0]
    assert "do not match their checksum" in warning[0]


def test_dask_worker_killed_mid_sweep_costs_one_retry_of_its_run(workloads, tmp_path,
                                                                 monkeypatch):
    """The worker process running one run is SIGKILLed from outside while it
    runs; Dask's nanny starts a new worker, the run is retried once there, and
    the sweep ends with every run stored and correct."""
    pytest.importorskip("distributed")
    from accelsim.sweep.runner import sweep

    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv("ACCELSIM_TEST_MARKS", str(marks))
    points = [VICTIM, {**VICTIM, "scheduler": "lrr"}, {**VICTIM, "icnt_latency": 4},
              {**VICTIM, "l2_rop_latency": 60}]
    killed = []

    def kill_the_victims_worker():
        pid_file = marks / "victim.pid"
        deadline = time.monotonic() + 240
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for the run to start (an event, not a fixed delay)
        if pid_file.exists():
            pid = int(pid_file.read_text())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    killer = threading.Thread(target=kill_the_victims_worker, daemon=True)
    killer.start()
    table = sweep(workloads, "QV100", points=points, out=tmp_path / "out", engine="dask",
                  workers=2, progress=False, _run=sweep_helpers.killed_once_on_victim)
    killer.join(timeout=10)
    assert killed, "the victim's run never started"
    assert table.attrs["errors"] == 0 and (table["status"] == "ok").all() and len(table) == 8
    starts = [line.split() for line in (marks / "starts.log").read_text().splitlines()]
    by_run: dict = {}
    for key, pid in starts:
        by_run.setdefault(key, []).append(int(pid))
    retried = {k: pids for k, pids in by_run.items() if len(pids) > 1}
    assert len(by_run) == 8 and len(retried) == 1  # one run retried, every other run once
    (pids,) = retried.values()
    assert pids[0] == killed[0] and pids[1] != killed[0]  # retried on another worker
    reference = accelsim.sweep(workloads, "QV100", points=points, engine="serial", progress=False)
    pd.testing.assert_frame_equal(table, reference)

