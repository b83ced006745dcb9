"""Warnings read as one line, once: in a script, on the command line, from a
sweep's worker processes; and `run --json` / `trace-info --json` carry them."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import accelsim
from accelsim.tracegen.examples import write_vecadd

# sm_80 traces run on the QV100 (sm_70) config: a run that works but warns.
ARCH = "trace made for sm_80"


@pytest.fixture(scope="module")
def sm80(tmp_path_factory):
    listing = write_vecadd(tmp_path_factory.mktemp("sm80"), n=512, block=128)
    kernel = listing.parent / "kernel-1.traceg"
    kernel.write_text(kernel.read_text().replace("-binary version = 70", "-binary version = 80"))
    return listing


def _with_extra_field(listing):
    import re

    kernel = listing.parent / "kernel-1.traceg"
    lines = kernel.read_text().splitlines()
    inst = re.compile(r"^[0-9a-f]{4,} [0-9a-f]{8} ")
    kernel.write_text("\n".join(f"{ln} 0x1f" if inst.match(ln) else ln for ln in lines) + "\n")


def _warning_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if "warning" in ln.lower()]


def test_a_script_shows_an_accelsim_warning_as_one_line(sm80):
    code = f"import accelsim; accelsim.Simulator('QV100').run({str(sm80)!r}, progress=False)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accelsim: warning: ") and ARCH in lines[0]
    assert ".py:" not in out.stderr  # no accelsim source location, no source line


def test_other_warnings_keep_their_form():
    import warnings

    formatted = warnings.formatwarning("old", DeprecationWarning, "x.py", 3)
    assert formatted.startswith("x.py:3: DeprecationWarning: old")
    assert warnings.formatwarning("m", accelsim.AccelsimWarning, "x.py", 3) == \
        "accelsim: warning: m\n"


def test_a_sweep_shows_each_warning_once_whatever_the_workers(sm80, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"workloads: {{a: {sm80}}}\nconfig: QV100\n"
                    "grid: {icnt_latency: [4, 8, 12, 16]}\n")
    out = subprocess.run([sys.executable, "-m", "accelsim", "sweep", str(spec), "--engine",
                          "process", "--workers", "2", "--no-progress"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = _warning_lines(out.stderr)
    assert len(lines) == 1 and lines[0].startswith("accelsim: warning: ") and ARCH in lines[0], \
        out.stderr
    with pytest.warns(accelsim.AccelsimWarning, match=ARCH) as caught:
        accelsim.sweep({"a": str(sm80)}, "QV100", {"icnt_latency": [4, 8, 12]}, engine="serial",
                       progress=False)
    assert len([w for w in caught if ARCH in str(w.message)]) == 1


def test_run_json_carries_the_warnings(sm80):
    out = subprocess.run([sys.executable, "-m", "accelsim", "run", str(sm80), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["warnings"]) == 1 and ARCH in data["warnings"][0]
    assert len(_warning_lines(out.stderr)) == 1  # and still shown, once


def test_trace_info_json_carries_kernelslist_and_trace_format_warnings(tmp_path):
    listing = write_vecadd(tmp_path, n=512, block=128)
    listing.write_text("Memcpyhtod,0x7f0000000000,4\n" + listing.read_text())
    _with_extra_field(listing)
    out = subprocess.run([sys.executable, "-m", "accelsim", "trace-info", str(listing), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout)["warnings"]
    assert len(said) == 2
    assert "command 'Memcpyhtod" in said[0] and "kernel 1:" in said[1] and "0x1f" in said[1]
    assert [ln.startswith("accelsim: warning: ") for ln in _warning_lines(out.stderr)] == [True] * 2
    plain = subprocess.run([sys.executable, "-m", "accelsim", "trace-info", str(listing)],
                           capture_output=True, text=True)
    assert len(_warning_lines(plain.stderr)) == 2 and "Traceback" not in plain.stderr
    clean = write_vecadd(tmp_path / "clean", n=512, block=128)
    out = subprocess.run([sys.executable, "-m", "accelsim", "trace-info", str(clean), "--json"],
                         capture_output=True, text=True)
    assert json.loads(out.stdout)["warnings"] == [] and out.stderr == ""
