"""A sweep never loses a finished run: a worker that dies mid-run costs that
run only (recorded with its error), and an interrupted sweep resumes without
recomputing anything it had stored."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import accelsim
import sweep_helpers
from sweep_helpers import GRID, VICTIM, make_workloads


@pytest.fixture(scope="module")
def workloads(tmp_path_factory):
    return make_workloads(tmp_path_factory.mktemp("faults-workloads"))


@pytest.fixture(scope="module")
def reference(workloads):
    return accelsim.sweep(workloads, "QV100", GRID, engine="serial")


def _is_victim(table):
    return ((table["workload"] == "chase")
            & (table[list(VICTIM)] == pd.Series(VICTIM)).all(axis=1))


def _check_only_victim_lost(table, reference, reason):
    victim = _is_victim(table)
    assert victim.sum() == 1
    row = table[victim].iloc[0]
    assert row["status"] == "error" and reason in row["error"], row["error"]
    assert row["error"].startswith("worker died while running this point")
    rest, ref = table[~victim], reference[~_is_victim(reference)]
    assert (rest["status"] == "ok").all()
    pd.testing.assert_frame_equal(rest.reset_index(drop=True), ref.reset_index(drop=True),
                                  check_dtype=False)  # cycles are float where the error row is


def _stamps(out: Path) -> dict:
    """Identity of every stored finished run (a rewritten file changes it)."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in (out / "runs").glob("*.parquet") if ".failed." not in p.name}


@pytest.mark.parametrize("how, reason", [(sweep_helpers.exit_on_victim, "exited with status 3"),
                                         (sweep_helpers.sigkill_on_victim, "killed by SIGKILL")])
def test_process_pool_worker_death_loses_only_its_run(workloads, reference, tmp_path, how,
                                                       reason):
    from accelsim.sweep.runner import sweep

    out = tmp_path / "out"
    table = sweep(workloads, "QV100", GRID, out=out, engine="process", workers=2, _run=how)
    _check_only_victim_lost(table, reference, reason)
    assert table.attrs["errors"] == 1
    before = _stamps(out)
    # The resume reruns the dead run alone (here with the plain task: it succeeds).
    resumed = accelsim.sweep(workloads, "QV100", GRID, out=out, engine="process", workers=2)
    pd.testing.assert_frame_equal(resumed, reference)
    assert {k: v for k, v in _stamps(out).items() if k in before} == before
    assert len(_stamps(out)) == len(before) + 1 == 54
    assert not list((out / "runs").glob("*.failed.*"))


def test_dask_worker_death_loses_only_its_run(workloads, reference, tmp_path):
    pytest.importorskip("distributed")
    from accelsim.sweep.runner import sweep

    # A few points around the victim: each death costs Dask a worker restart.
    points = [VICTIM, {**VICTIM, "scheduler": "lrr"}, {**VICTIM, "icnt_latency": 4},
              {**VICTIM, "l2_rop_latency": 60}]
    table = sweep(workloads, "QV100", points=points, out=tmp_path / "out", engine="dask",
                  workers=2, _run=sweep_helpers.sigkill_on_victim)
    assert table.attrs["errors"] == 1 and len(table) == 8
    keys = ["point", *VICTIM, "workload"]
    ref = table[keys].merge(reference.drop(columns="point"), on=keys[1:], how="left")
    _check_only_victim_lost(table, ref, "Dask gave up on it")


def test_keyboard_interrupt_then_resume(workloads, reference, tmp_path):
    out = tmp_path / "out"
    seen = []

    def interrupt_after_five(info):
        seen.append(info)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        accelsim.sweep(workloads, "QV100", GRID, out=out, engine="process", workers=2,
                       progress=interrupt_after_five)
    stored = _stamps(out)
    assert len(stored) == 5  # every run reported finished is on disk
    assert not _worker_children()  # the pool's processes are gone
    seen.clear()
    resumed = accelsim.sweep(workloads, "QV100", GRID, out=out, engine="process", workers=2,
                             progress=seen.append)
    assert len(seen) == 54 - 5 and seen[0]["done"] == 6
    assert {k: v for k, v in _stamps(out).items() if k in stored} == stored
    pd.testing.assert_frame_equal(resumed, reference)


def _worker_children(parent: int | None = None) -> list[int]:
    """Live pool worker processes started by ``parent`` (default: this process)."""
    parent = parent or os.getpid()
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and fields[0] != "Z" and b"accelsim.sweep.worker" in cmdline:
            found.append(int(stat.parent.name))
    return found


def test_cli_sigint_then_resume(workloads, reference, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"workloads: {{vecadd: {workloads['vecadd']}, chase: {workloads['chase']}}}\n"
                    "config: QV100\ngrid:\n"
                    + "".join(f"  {k}: {v!r}\n".replace("'", '"') for k, v in GRID.items()))
    out = tmp_path / "spec.sweep"
    cmd = [sys.executable, "-m", "accelsim", "sweep", str(spec), "--workers", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(_stamps(out) if (out / "runs").is_dir() else {}) < 3:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.005)
    workers = _worker_children(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted; finished runs are stored in" in err and "Traceback" not in err
    assert workers and not any(Path(f"/proc/{pid}").exists() for pid in workers)
    stored = _stamps(out)
    assert 3 <= len(stored) < 54
    resumed = subprocess.run(cmd, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert {k: v for k, v in _stamps(out).items() if k in stored} == stored
    pd.testing.assert_frame_equal(accelsim.sweep.load_sweep(out), reference)
