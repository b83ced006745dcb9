"""One GPU on several threads gives the single-threaded result, bit for bit:
every counter family, the kernel table and the cycle count are equal for
threads = 1, 2, 3 and 4 (oversubscribed on a 2-core machine: fine), on the
real BFS trace, concurrent streams and memory-bound workloads, with both
memory models (docs/parallel.md)."""
from __future__ import annotations

import numpy as np
import pytest

import accelsim
from accelsim import load_config
from accelsim.bench.cases import CASES
from accelsim.errors import ConfigError
from accelsim.microbench import HardwareDef, get
from accelsim.tracegen import write_workload
from accelsim.tracegen.streams import l2_chase_streams

THREADS = [1, 2, 3, 4]
MODELS = ["simple", "detailed"]


def fingerprint(result):
    """Everything a run reports, as plain values (wall time excluded)."""
    families = {name: np.array(result.counters(name)) for name in result.families}
    table = result.kernels
    table = table[[c for c in table.columns if "wall" not in c]]
    return result.total_cycles, table, families


def assert_same(a, b, label):
    assert a[0] == b[0], f"{label}: total cycles differ"
    assert a[1].equals(b[1]), f"{label}: kernel tables differ"
    assert a[2].keys() == b[2].keys()
    for name in a[2]:
        assert np.array_equal(a[2][name], b[2][name]), f"{label}: family {name} differs"


def runs_agree(workload, overrides, threads=THREADS):
    sim = accelsim.Simulator(overrides)
    base = fingerprint(sim.run(workload, threads=threads[0]))
    assert base[0] > 0
    for n in threads[1:]:
        assert_same(base, fingerprint(sim.run(workload, threads=n)), f"threads={n}")
    return base


@pytest.fixture(scope="module")
def chase(tmp_path_factory):
    return l2_chase_streams(tmp_path_factory.mktemp("chase"), streams=4, loads=32)


@pytest.fixture(scope="module")
def bandwidth(tmp_path_factory):
    """The memory-bound microbenchmarks (L2 and DRAM bandwidth, every SM)."""
    hw = HardwareDef.from_config(load_config("QV100").with_overrides({"sm_count": 16}))
    root = tmp_path_factory.mktemp("bw")
    return {name: write_workload(root / name, get(name).generate(hw, 2, threads=128).commands)
            for name in ("l2_bw", "dram_bw")}


@pytest.mark.parametrize("model", MODELS)
def test_concurrent_streams_are_identical_for_every_thread_count(chase, model):
    base = runs_agree(chase, {"memory_model": model, "sm_count": 16})
    assert len(base[1]) == 4  # four kernels, overlapping on different streams


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("name", ["l2_bw", "dram_bw"])
def test_memory_bound_microbenchmarks_are_identical(bandwidth, name, model):
    runs_agree(bandwidth[name], {"memory_model": model, "sm_count": 16})


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("case", ["vecadd", "copy_float4"])
def test_bench_workloads_are_identical(tmp_path, case, model):
    make = next(c for c in CASES if c.name == case).make
    runs_agree(make(tmp_path / case, True), {"memory_model": model})


@pytest.mark.parametrize("model", MODELS)
def test_real_bfs_trace_is_identical(model):
    from conftest import shared_data

    data = shared_data()
    if data is None:
        pytest.skip("../shared/data (real traces) is not present")
    runs_agree(data / "traces" / "bfs_rodinia31_sm70", {"memory_model": model})


def test_stress_repeated_parallel_runs_never_differ(chase):
    """Thread timing varies run to run (and with the machine's load); the
    result must not."""
    sim = accelsim.Simulator({"memory_model": "detailed", "sm_count": 16})
    base = fingerprint(sim.run(chase, threads=1))
    for i in range(12):
        n = 2 + i % 3
        assert_same(base, fingerprint(sim.run(chase, threads=n)), f"repeat {i}, threads={n}")


def test_threads_from_the_config_and_zero_means_every_core(chase):
    a = fingerprint(accelsim.Simulator({"threads": 0, "sm_count": 16}).run(chase))
    b = fingerprint(accelsim.Simulator({"threads": 1, "sm_count": 16}).run(chase))
    assert_same(a, b, "threads: 0")


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True, 5000])
def test_bad_thread_counts_are_config_errors(chase, bad):
    with pytest.raises(ConfigError, match="threads"):
        accelsim.Simulator({}).run(chase, threads=bad)


def test_bench_reports_the_speed_up_over_one_thread():
    from accelsim.bench import run_bench

    rows = run_bench(quick=True, cases=["vecadd"], threads=2, overrides={"sm_count": 16})
    assert len(rows) == 1
    row = rows[0]
    assert row["threads"] == 2 and row["same_result"] is True
    assert row["speedup_vs_1_thread"] > 0 and row["wall_1_thread_s"] > 0 and row["cpu_s"] > 0


def test_parallel_simulators_in_several_python_threads(chase):
    """Each GPU owns its worker pool; runs release the GIL."""
    import threading

    base = fingerprint(accelsim.Simulator({"sm_count": 16}).run(chase, threads=1))
    got, errors = [None] * 3, []

    def work(i):
        try:
            got[i] = fingerprint(accelsim.Simulator({"sm_count": 16}).run(chase, threads=2 + i % 2))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for g in got:
        assert_same(base, g, "python thread")
