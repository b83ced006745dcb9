"""Issue 11 §2 start-up: `accelsim run --json` and `accelsim trace-info` load
only what they use (no pandas, no matplotlib; `run --json` not even NumPy),
and stay inside the memory target on a small trace."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from accelsim.bench.startup import TARGET_RSS_MB, measure
from accelsim.tracegen.examples import write_vecadd

HEAVY = {"pandas", "matplotlib", "pyarrow", "scipy"}

_PROBE = """
import contextlib, io, json, sys
from accelsim.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "loaded": sorted({m.split('.')[0] for m in sys.modules})}))
"""


@pytest.fixture(scope="module")
def small_trace(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("small"), n=4096)


def loaded_by(*args) -> set[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["code"] == 0
    return set(data["loaded"])


def test_run_json_imports_neither_pandas_nor_numpy(small_trace):
    loaded = loaded_by("run", str(small_trace), "--json")
    assert not loaded & HEAVY and "numpy" not in loaded, sorted(loaded & (HEAVY | {"numpy"}))


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_trace_info_imports_no_pandas(small_trace, extra):
    loaded = loaded_by("trace-info", str(small_trace), *extra)
    assert not loaded & HEAVY, sorted(loaded & HEAVY)


def test_command_line_loads_only_the_command_used(small_trace):
    loaded = loaded_by("trace-info", str(small_trace))
    assert "accelsim.microbench" not in loaded  # package names only: check the module
    out = subprocess.run([sys.executable, "-c", "import sys\nfrom accelsim.cli import main\n"
                          "main(['config', 'list'])\nprint('accelsim.microbench' in sys.modules)"],
                         capture_output=True, text=True, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout + out.stderr


@pytest.mark.parametrize("args", [["run", "{trace}", "--json"], ["trace-info", "{trace}"]])
def test_peak_memory_of_small_runs_is_within_target(small_trace, args):
    m = measure([a.format(trace=small_trace) for a in args], repeats=1)
    assert m["peak_rss_mb"] <= TARGET_RSS_MB, m


class _ArraysOnly:
    """The core's statistics without the plain-list accessor (as a saved result's)."""

    def __init__(self, stats):
        self._stats = stats

    def __getattr__(self, name):
        if name == "counter_list":
            raise AttributeError(name)
        return getattr(self._stats, name)


def test_plain_list_stream_sums_equal_the_numpy_ones(small_trace):
    import accelsim
    from accelsim.stats.streams import stream_rows

    result = accelsim.Simulator("QV100").run(small_trace)
    plain = result.to_dict()["streams"]
    with_numpy = stream_rows(result.columns, _ArraysOnly(result._stats))
    assert plain == with_numpy and plain[0]["l2.read_sectors"] > 0
    assert result.streams.to_dict(orient="records") == plain
