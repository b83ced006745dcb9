"""One workload over processes: flushed, the merged result is the serial
flushed run bit for bit; warm, within 2% of the serial run; a lost worker
costs only its unit; and the flush itself is a sum of independent commands."""
from __future__ import annotations

import importlib.util

import pytest

import accelsim
from accelsim.errors import TraceError
from accelsim.sampling.units import runner
from accelsim.sampling.units.split import split_commands
from sampling_helpers import differences, write_tiny


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    g = write_tiny(tmp_path_factory.mktemp("tiny"))
    sim = accelsim.Simulator("QV100")
    return g, sim, sim.run(g.path, progress=False, flush=True)


def test_split_flushed_run_equals_the_serial_one_bit_for_bit(workload):
    g, sim, serial = workload
    split = sim.run(g.path, progress=False, flush=True, engine="serial", units=3)
    assert differences(serial, split) == []
    assert len(split.extra["units"]) == 3


def test_process_engine_gives_the_same_result(workload):
    g, sim, serial = workload
    split = sim.run(g.path, progress=False, flush=True, engine="process", workers=2)
    assert differences(serial, split) == []
    assert len({u["worker"] for u in split.extra["units"]}) == 2


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="needs accelsim[dask]")
def test_dask_local_cluster_gives_the_same_result(workload):
    g, sim, serial = workload
    split = sim.run(g.path, progress=False, flush=True, engine="dask", workers=2)
    assert differences(serial, split) == []


def test_warm_split_is_close_to_the_serial_run(workload):
    g, sim, _ = workload
    serial = sim.run(g.path, progress=False)
    split = sim.run(g.path, progress=False, engine="serial", units=3)
    assert abs(split.total_cycles / serial.total_cycles - 1) < 0.02
    assert list(split.kernels["id"]) == list(serial.kernels["id"])
    assert set(split.kernels["status"]) == {"simulated"}  # warm-up rows are not in the result
    units = split.extra["units"]
    assert units[1]["first"] < units[1]["count_from"]  # a kernel of the unit before warms it


def test_units_cover_the_commands_once_with_copies_before_their_kernel():
    commands = [("memcpy_htod", 1, "", "", 0, 64)] + [("kernel", i, "", "/nonexistent", 0, 0)
                                                       for i in range(2, 8)]
    units = split_commands(commands, 3, warmup=1)
    assert [u.count_from for u in units][0] == 0 and units[-1].end == len(commands)
    assert all(a.end == b.count_from for a, b in zip(units, units[1:]))
    assert all(commands[u.count_from][0] == "kernel" or u.count_from == 0 for u in units)
    assert all(u.first == u.count_from - 1 for u in units[1:])


class _FlakyEngine:
    """Runs units here; the first try of unit 1 reports a dead worker."""
    workers = 2

    def __init__(self):
        self.tries = []

    def imap(self, fn, tasks):
        for task in tasks:
            self.tries.append(task["unit"])
            if task["unit"] == 1 and self.tries.count(1) == 1:
                yield task, {"status": "error", "error": "worker died while running this point: killed",
                             "worker": None}
            else:
                yield task, fn(task)


def test_a_dead_worker_costs_only_its_unit(workload, monkeypatch):
    g, sim, serial = workload
    engine = _FlakyEngine()
    monkeypatch.setattr("accelsim.sweep.engines.make_engine", lambda e, w: engine)
    split = sim.run(g.path, progress=False, flush=True, engine="process", units=3)
    assert sorted(engine.tries) == [0, 1, 1, 2]  # unit 1 ran again, the others once
    assert differences(serial, split) == []


def test_a_failing_unit_raises_its_error_naming_the_unit(workload, tmp_path):
    _, sim, _ = workload
    g = write_tiny(tmp_path / "w", compression=None)
    last = tmp_path / "w" / f"kernel-{g.kernels}.traceg"
    text = last.read_text().splitlines()
    text[-5] = "0000 ffffffff 1 R2 NOTANOPCODE 0 0 0"  # a body line the reader refuses
    last.write_text("\n".join(text) + "\n")
    with pytest.raises(TraceError, match="unit 2"):
        sim.run(g.path, progress=False, engine="serial", units=3)


def test_split_runs_refuse_a_budget(workload):
    g, sim, _ = workload
    with pytest.raises(accelsim.ConfigError, match="max_cycles"):
        sim.run(g.path, engine="serial", max_cycles=100)
    with pytest.raises(accelsim.ConfigError, match="engine"):
        sim.run(g.path, engine="threads")


def test_an_interrupted_split_run_keeps_the_units_done(workload, monkeypatch):
    g, sim, _ = workload
    real = runner.run_unit
    calls = []

    def stop_at_third(task):
        calls.append(task["unit"])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr("accelsim.sampling.units.runner.run_unit", stop_at_third)
    with pytest.raises(accelsim.Interrupted) as stop:
        sim.run(g.path, progress=False, flush=True, engine="serial", units=3)
    r = stop.value.result
    assert r.num_kernels == g.kernels and not r.completed and r.interrupted
    assert "not_reached" in set(r.columns["status"]) and "simulated" in set(r.columns["status"])
