"""Long-run determinism: the whole real BFS workload and a
multi-stream workload give bit-identical results across two runs in a row
and two runs at once in two Python threads: every counter family (final
totals and per-kernel blocks) and the whole kernel table."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import accelsim
from accelsim.tracegen.streams import l2_chase_streams, stream_pair

# Columns that measure the host, not the simulation.
HOST_COLUMNS = {"wall_time_s"}


def fingerprint(result) -> dict:
    """Everything a run reports, as exact values."""
    out = {"total_cycles": result.total_cycles, "completed": result.completed}
    table = result.kernels
    for col in table.columns:
        if col not in HOST_COLUMNS:
            out[f"kernels.{col}"] = table[col].to_numpy().tobytes() if table[col].dtype.kind in "biuf" \
                else tuple(map(repr, table[col]))
    families = list(result.families)
    assert families, "the run reported no counter families"
    for name in families:
        counters = result.counters(name)
        out[f"{name}"] = (counters.dtype.str, counters.shape, np.ascontiguousarray(counters).tobytes())
        per_kernel = result.frame(name, per_kernel=True)
        out[f"{name}.per_kernel"] = per_kernel.to_numpy().tobytes()
    return out


def assert_identical(a: dict, b: dict, label: str) -> None:
    assert a.keys() == b.keys(), label
    differing = [k for k in a if a[k] != b[k]]
    assert not differing, f"{label}: differ in {differing[:10]}"


def runs(config, workload) -> list[dict]:
    """Two runs one after the other, then two at once in two threads."""
    sim = accelsim.Simulator(config)
    serial = [fingerprint(sim.run(workload)) for _ in range(2)]
    parallel: list = [None, None]
    errors: list = []

    def work(slot):
        try:
            parallel[slot] = accelsim.Simulator(config).run(workload)
        except BaseException as exc:  # surfaced below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return serial + [fingerprint(r) for r in parallel]


def check(config, workload) -> None:
    prints = runs(config, workload)
    for i, p in enumerate(prints[1:], start=1):
        assert_identical(prints[0], p, ["second serial run", "thread 1", "thread 2"][i - 1])


def test_real_bfs_is_bit_identical_across_runs_and_threads(shared):
    workload = shared / "traces" / "bfs_rodinia31_sm70" / "kernelslist.g"
    check("QV100", workload)


@pytest.mark.parametrize("model", ["detailed", "simple"])
def test_stream_workloads_are_bit_identical_across_runs_and_threads(tmp_path, model):
    config = accelsim.load_config("QV100").with_overrides({"memory_model": model})
    check(config, stream_pair(tmp_path / "pair", ctas=24, iterations=6, ffmas=256))
    check(config, l2_chase_streams(tmp_path / "chase", streams=4, loads=24))
