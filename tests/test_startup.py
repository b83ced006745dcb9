"""Start-up: `accelsim run --json` and `accelsim trace-info` load
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


def test_run_json_imports_no_error_only_or_discovery_helpers(small_trace):
    # difflib serves misspelt-key messages only; pkgutil's module scan
    # imported inspect: neither belongs in every start-up
    loaded = loaded_by("run", str(small_trace), "--json")
    assert not loaded & {"difflib", "pkgutil"}, sorted(loaded & {"difflib", "pkgutil"})


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_trace_info_imports_neither_numpy_nor_yaml(small_trace, extra):
    # Headers and totals only: the count matrices (NumPy) are for --mix.
    loaded = loaded_by("trace-info", str(small_trace), *extra)
    assert not loaded & (HEAVY | {"numpy", "yaml"}), sorted(loaded & (HEAVY | {"numpy", "yaml"}))


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_help_imports_no_command_machinery():
    """`accelsim --help` builds every command's parser: none of them may load
    what the command itself needs (the tuning suite, the microbenchmarks, the
    config reader) or any heavy library."""
    loaded = _modules_after("from accelsim.cli import build_parser\nbuild_parser()")
    heavy = {m for m in loaded if m.split(".")[0] in HEAVY | {"numpy", "yaml", "tqdm"}}
    assert not heavy, sorted(heavy)
    machinery = {m for m in loaded if m.startswith(("accelsim.tune", "accelsim.microbench",
                                                      "accelsim.config", "accelsim.sim"))}
    assert not machinery, sorted(machinery)


def test_import_accelsim_is_light():
    loaded = _modules_after("import accelsim")
    assert not {m for m in loaded if m.split(".")[0] in HEAVY | {"numpy", "yaml", "tqdm"}}
    assert "accelsim.config" not in loaded and "accelsim._core" not in loaded
    assert "accelsim.sampling" not in loaded  # imported by the first sampled or split run
    import accelsim

    assert accelsim.load_config("QV100").name == "QV100"  # resolved on first use


def test_run_json_does_not_load_the_gpgpusim_importer(small_trace):
    out = subprocess.run([sys.executable, "-c", _PROBE.replace(
        "sorted({m.split('.')[0] for m in sys.modules})", "sorted(sys.modules)"),
        "run", str(small_trace), "--json"], capture_output=True, text=True, timeout=300)
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1])["loaded"])
    assert "accelsim.config.gpgpusim" not in loaded and "accelsim.trace.kernel" not in loaded


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
