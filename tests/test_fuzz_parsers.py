"""Fuzzing every parser on every CI run, bounded in time.

Each input runs in a worker process that is restarted when it dies, so a
crash, an abort, a signal or a hang is reported with the exact input and the
command that replays it. Acceptable outcomes: success or an accelsim error.
``ACCELSIM_FUZZ_SECONDS`` (per target) and ``ACCELSIM_FUZZ_SEED`` widen or
vary the run; the long run is ``python -m accelsim.devtools.fuzz``."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelsim.devtools.fuzz import TARGETS, Worker, fuzz_target
from accelsim.devtools.fuzz.mutate import INTERESTING

SECONDS = float(os.environ.get("ACCELSIM_FUZZ_SECONDS", "3"))
SEED = int(os.environ.get("ACCELSIM_FUZZ_SEED", "0"))
FAST = [name for name, t in TARGETS.items() if not t.slow]
SLOW = [name for name, t in TARGETS.items() if t.slow]


def assert_clean(report) -> None:
    assert report.inputs > 0, f"{report.target}: no input ran"
    details = "\n".join(f.describe() for f in report.findings.values())
    assert not report.findings, f"{report.target}: {len(report.findings)} kind(s) of finding " \
                                f"in {report.inputs} inputs\n{details}"


@pytest.mark.parametrize("target", FAST)
def test_parser_fuzz(target):
    assert_clean(fuzz_target(target, inputs=100_000, seconds=SECONDS, seed=SEED, batch=50))


@pytest.mark.parametrize("target", SLOW)
def test_simulation_fuzz(target):
    assert_clean(fuzz_target(target, inputs=40, seconds=SECONDS + 2, seed=SEED, batch=50))


def test_worker_reports_a_crash_and_a_hang_with_the_input(monkeypatch):
    """The harness itself can fail: a worker killed by a signal or stuck in
    one input is a finding that names the input, and the next input still runs."""
    # The timeout also bounds the cold worker's first real input (config
    # imports): 5 s leaves room for a loaded machine, where 2 s did not.
    with Worker(timeout_s=5.0) as worker:
        crash = worker.one("dict_config", {"__fuzz_selftest__": "abort"})
        hang = worker.one("dict_config", {"__fuzz_selftest__": "hang"})
        fine = worker.one("dict_config", {"sm_count": 4})
    assert crash is not None and crash.kind == "crash" and "SIGABRT" in crash.type, crash
    assert "__fuzz_selftest__" in crash.message
    assert hang is not None and hang.kind == "timeout", hang
    assert fine is None


# -- hypothesis: structured inputs, shrunk to a minimal failing one ------------------
_scalar = st.one_of(st.integers(min_value=-2**70, max_value=2**70), st.floats(),
                    st.booleans(), st.none(), st.sampled_from(INTERESTING),
                    st.text(max_size=12),
                    st.builds(lambda n, u: f"{n} {u}", st.integers(-10, 10**12),
                              st.sampled_from(["B", "KiB", "MiB", "cycles", "MHz", "GHz", "%", "x"])))
_value = st.one_of(_scalar, st.lists(_scalar, max_size=3),
                   st.dictionaries(st.text(max_size=6), _scalar, max_size=2))


@pytest.fixture(scope="module")
def worker():
    with Worker(timeout_s=20.0) as w:
        yield w


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(values=st.dictionaries(st.sampled_from(["sm_count", "l1d_size", "core_clock", "scheduler",
                                               "l1d_sector", "memory_model", "exec_units",
                                               "shmem_carveouts", "opcode_units", "l2_size",
                                               "deadlock_cycles", "not_a_key"]),
                              _value, min_size=1, max_size=3))
def test_dict_configs_hypothesis(worker, values):
    finding = worker.one("dict_config", values)
    assert finding is None, finding.message


_field = st.one_of(st.sampled_from(INTERESTING), st.from_regex(r"[0-9a-fxR.\-]{1,20}", fullmatch=True))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(["MemcpyHtoD", "kernel", "Memcpyhtod", "cudaMemset"]),
       fields=st.lists(_field, min_size=0, max_size=4))
def test_kernelslist_lines_hypothesis(worker, kind, fields):
    line = (",".join([kind, *fields]) if kind != "kernel" else
            "kernel-" + "".join(fields) + ".traceg")
    finding = worker.one("kernelslist", f"kernel-1.traceg\n{line}\n".encode())
    assert finding is None, finding.message
