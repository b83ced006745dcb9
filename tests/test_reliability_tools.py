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


def test_input_check_cases_are_in_the_catalogue_with_their_own_table(tmp_path):
    from accelsim.devtools.catalogue import update_doc

    from accelsim.devtools import catalogue_inputs

    mine = catalogue_inputs.cases()
    assert len(mine) >= 20 and len({c.title for c in mine}) == len(mine)
    assert not [c for c in cases() if c.section == "inputs"]  # not also in the trace table
    doc = tmp_path / "r.md"
    doc.write_text("intro\n")
    row = {"n": 1, "section": "x", "input": "i", "expect": "error", "verdict": "ok", "exit": 1,
           "seen": "s"}
    update_doc(doc, markdown([row]))
    update_doc(doc, markdown([dict(row, seen="inputs table")], "inputs"), "inputs")
    update_doc(doc, markdown([dict(row, seen="main again")]))  # rewrites the main table only
    text = doc.read_text()
    assert "inputs table" in text and "main again" in text and "| s |" not in text
    assert text.count("catalogue-inputs:begin") == 1


def test_one_input_check_case_runs_clean(tmp_path):
    from accelsim.devtools import catalogue_inputs

    case = next(c for c in catalogue_inputs.cases() if "5,000-deep YAML list" in c.title)
    row = run_case(case, tmp_path / "a", {"example": tmp_path, "result": tmp_path,
                                          "hostile": tmp_path})
    assert row["verdict"] == "ok" and "nested more than 100 levels" in row["seen"], row


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


def test_cuda_runtime_catalogue_has_its_cases_and_section(tmp_path):
    from accelsim.devtools import catalogue_cuda
    from accelsim.devtools.catalogue import SETS, update_doc

    mine = catalogue_cuda.cases()
    assert len(mine) >= 15 and len({c.title for c in mine}) == len(mine)
    assert {c.section for c in mine} == {"CUDA §1", "CUDA §2", "CUDA §3", "CUDA §4"}
    assert all(c.cli[0] == "cuda" for c in mine)
    assert "cuda" in SETS
    doc = tmp_path / "r.md"
    row = {"n": 1, "section": "CUDA §1", "input": "i", "expect": "error", "verdict": "ok", "exit": 1,
           "seen": "cuda table"}
    update_doc(doc, markdown([row], "cuda"), "cuda")
    assert doc.read_text().count("catalogue-cuda:begin") == 1 and "cuda table" in doc.read_text()


def test_cuda_catalogue_case_without_a_build_runs_clean(tmp_path):
    from accelsim.devtools import catalogue_cuda

    case = next(c for c in catalogue_cuda.cases() if "does not exist" in c.title)
    row = run_case(case, tmp_path / "a", {})
    assert row["verdict"] == "ok" and "no such program" in row["seen"], row


def test_ptx_coverage_reads_instruction_forms_and_judges_them():
    from accelsim.devtools.ptx_coverage import instructions, markdown, opcode_table, survey, verdict

    ptx = ("// a comment\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n$L__BB0_1:\n"
           "\t@%p1 bra $L__BB0_1;\n\tld.global.nc.v2.u32 {%r1, %r2}, [%rd1];\n"
           "\tpmevent.mask 1;\n\tbar.cta.red.popc.u32 %r3, 0, %p1;\n"
           "\ttex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd2, {%r1, %r2}];\n"
           "\tadd.s32.bogus %r1, %r1, 1;\n\tret;\n}\n")
    forms = instructions(ptx)
    assert forms == [("bra", ()), ("ld", ("global", "nc", "v2", "u32")), ("pmevent", ("mask",)),
                     ("bar", ("cta", "red", "popc", "u32")), ("tex", ("2d", "v4", "f32", "s32")),
                     ("add", ("s32", "bogus")), ("ret", ())]
    table = opcode_table()
    assert "ld" in table and "global" in table["ld"]
    assert [verdict(op, mods, table) for op, mods in forms] == [
        "runs", "runs", "parser: no opcode `pmevent`", "runs",
        "runs",
        "parser: `add` without modifier `.bogus`", "runs"]
    s = survey([{"suite": "x", "program": "k", "ptx": [ptx], "why": ""},
                {"suite": "x", "program": "broken", "ptx": [], "why": "nvcc: error"}])
    assert s["programs"][0]["missing"] == ["add.s32.bogus", "pmevent.mask"]
    assert s["used"]["bar.red"] == {"x/k"}  # a variant row counts as its own
    assert s["programs"][0]["parser"] != "parses"  # the real parser's first error
    text = markdown(s)
    assert "| `pmevent.mask` | parser: no opcode `pmevent` | 1 | x/k |" in text
    assert "| x/broken | not compiled: nvcc: error | – |" in text
