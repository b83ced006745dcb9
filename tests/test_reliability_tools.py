"""The reliability tooling itself (docs/reliability.md): the catalogue
generator judges outcomes correctly, and the sanitizer script (opt-in: it
builds the core with ASan/UBSan, ~15 min on a 2-core machine) is clean."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from accelsim.devtools.catalogue import markdown, run_case
from accelsim.devtools.catalogue_cases import Case, cases

REPO = Path(__file__).resolve().parents[1]


def test_catalogue_has_the_issue_cases():
    sections = [c.section for c in cases()]
    assert len(sections) >= 60
    assert {"§0", "§1", "§3"} <= set(sections)


def test_catalogue_judges_clean_errors_silence_and_hangs(tmp_path):
    env = {"example": tmp_path, "result": tmp_path, "hostile": tmp_path}
    clean = run_case(Case("x", "unknown key", code="accelsim.load_config('QV100')"
                          ".with_overrides({'l1d_sizee': 1})"), tmp_path / "a", env)
    silent = run_case(Case("x", "fine input", code="accelsim.load_config('QV100')"),
                      tmp_path / "b", env)
    hang = run_case(Case("x", "sleeps", code="import time; time.sleep(60)", timeout=3),
                    tmp_path / "c", env)
    internal = run_case(Case("x", "internal", code="{}['missing']"), tmp_path / "d", env)
    assert clean["verdict"] == "ok" and "did you mean 'l1d_size'" in clean["seen"], clean
    assert silent["verdict"] == "SILENT", silent
    assert hang["verdict"] == "HANG", hang
    assert internal["verdict"] == "TRACEBACK" and "KeyError" in internal["seen"], internal
    rows = [dict(r, n=i) for i, r in enumerate([clean, silent, hang, internal], 1)]
    table = markdown(rows)
    assert table.count("\n| ") == 5  # header + 4 rows


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ACCELSIM_RUN_SANITIZE") != "1",
                    reason="set ACCELSIM_RUN_SANITIZE=1 to build and run the ASan/UBSan core")
def test_sanitizer_build_is_clean(tmp_path):
    proc = subprocess.run(["bash", str(REPO / "scripts" / "sanitize.sh"), str(tmp_path / "san")],
                          capture_output=True, text=True, timeout=3600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "[sanitize] clean" in proc.stdout


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ACCELSIM_RUN_SANITIZE") != "1",
                    reason="set ACCELSIM_RUN_SANITIZE=1 to build and run the ASan/UBSan core")
def test_sanitizer_ptx_mode_is_clean(tmp_path):
    """The PTX tests and the PTX fuzz targets (20 s each) on the instrumented
    core and extension: no sanitizer report, no finding."""
    build = tmp_path / "san"
    for script, args in (("sanitize.sh", [str(build)]), ("sanitize_ptx.sh", ["20", str(build)])):
        proc = subprocess.run(["bash", str(REPO / "scripts" / script), *args], capture_output=True, text=True,
                              timeout=7200, env={**os.environ, "PYTHON": sys.executable})
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "[sanitize-ptx] clean" in proc.stdout
