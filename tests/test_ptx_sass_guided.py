"""SASS-guided PTX mode (Device(records="sass"), docs/ptx.md, "SASS-guided PTX mode").

The parser tests read committed nvdisasm output (tests/nvdisasm_samples), so
they run without any CUDA tool; the end-to-end tests need ptxas and nvdisasm
(pip install 'accelsim[ptx]', part of the test extra) and skip without them."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import accelsim
from accelsim import PtxError, _core
from accelsim.ptx import Device, Module
from accelsim.ptx import ptxas as ptxas_mod
from accelsim.ptx import sass_guided as sg
from accelsim.ptx._tables import tables
from accelsim.trace._records import RAW_DTYPE

SAMPLES = Path(__file__).parent / "nvdisasm_samples"
EXAMPLES = Path(accelsim.__file__).parent / "ptx" / "examples"
HAVE_TOOLS = sg.find_tool("ptxas") is not None and sg.find_tool("nvdisasm") is not None
needs_tools = pytest.mark.skipif(not HAVE_TOOLS, reason="ptxas and nvdisasm not installed "
                                 "(pip install 'accelsim[ptx]': nvidia-cuda-nvcc, nvidia-cuda-nvdisasm)")


def sample(name: str) -> str:
    return (SAMPLES / f"{name}.sass").read_text()


# --- parsing committed nvdisasm output (no tools needed) --------------------

def test_parse_vector_add_sample():
    funcs = sg.parse_nvdisasm(sample("vectorAdd"))
    assert list(funcs) == ["vectorAdd"]
    insts = funcs["vectorAdd"].insts
    assert insts[0].address == 0 and insts[0].opcode == "MOV" and insts[0].line == 34
    assert [i.address for i in insts] == sorted(i.address for i in insts)
    assert any(i.pred == "@P0" and i.opcode == "EXIT" for i in insts)
    lines, stats = sg.line_map([funcs["vectorAdd"]])
    # the self-branch and NOPs after the last EXIT never execute
    assert stats["padding_dropped"] >= 1 and "NOP" not in {o for v in lines.values() for o in v}
    assert lines[52] == ["FADD"] and lines[55] == ["STG.E.SYS"] and lines[58] == ["EXIT"]
    assert sum(len(v) for v in lines.values()) == len(insts) - stats["padding_dropped"]


def test_unrolled_loop_is_recorded_once_per_ptx_execution():
    """mvt1's 4x-unrolled PTX loop was unrolled again by ptxas (4 + 2 + 1
    copies): one copy per PTX execution, extra loop control kept once."""
    lines, stats = sg.line_map([sg.parse_nvdisasm(sample("mvt1"))["mvt1"]])
    for line in (807, 808, 811, 812, 815, 816, 819, 820):
        assert lines[line] == ["LDG.E.SYS"], line
    assert lines[809] == ["FFMA"] and lines[822] == ["STG.E.SYS", "ISETP.NE.OR"]
    assert lines[825] == ["UIADD3", "UIADD3.X", "PLOP3.LUT"]
    assert stats["duplicates_dropped"] > 50


def test_scheduled_sequence_is_not_taken_for_copies():
    """A rem.u32 expansion split into runs by scheduling keeps every SASS."""
    def run(line, *ops):
        return [sg.SassInst(0, op, line) for op in ops]
    runs = [run(1, "I2F.U32.RP", "IMAD.MOV.U32"), run(1, "MUFU.RCP", "IADD3"),
            run(1, "F2I", "IADD3", "IMAD", "IMAD.HI.U32"), run(1, "IMAD.HI.U32", "IADD3", "ISETP", "IADD3")]
    assert sg._copies(runs) == 1
    assert sg._copies([run(1, "LDG.E"), run(1, "LDG.E"), run(1, "LDG.E")]) == 3


def test_spin_lock_sample_and_helper_function():
    lines, _ = sg.line_map([sg.parse_nvdisasm(sample("locked_count"))["locked_count"]])
    assert lines[33][-1] == "ATOMG.E.CAS.STRONG.GPU" and lines[42] == ["EXIT"]
    assert "YIELD" in lines[35]  # the spin loop's convergence code belongs to its branch
    # libdevice's slow path stays a called function: ptxas clones it into the
    # kernel's section ($sincos_f64$__internal_trig_reduction_slowpathd)
    funcs = sg.parse_nvdisasm(sample("sincos_f64"))
    assert list(funcs) == ["sincos_f64"]
    ops = [i.opcode for i in funcs["sincos_f64"].insts]
    assert "CALL.REL.NOINC" in ops and any(op.startswith("RET") for op in ops)
    lines, _ = sg.line_map([funcs["sincos_f64"]])
    assert any(op.startswith("STL") for v in lines.values() for op in v)  # the slow path's .local array
    assert any(op.startswith("CALL") for v in lines.values() for op in v)


def test_ptxas_slow_path_subroutine_is_not_recorded():
    """f32 division: the fast path (MUFU.RCP, FFMAs, FCHK, the CALL behind it)
    stays with the div's line; the out-of-line slow path ptxas appends is dropped."""
    funcs = sg.parse_nvdisasm(sample("fdiv_slowpath"))
    insts = funcs["saxpy"].insts
    slow = [i for i in insts if "slowpath" in i.routine]
    assert len(slow) > 50 and all(i.line is not None for i in slow)
    assert all(i.routine == "saxpy" for i in insts if i not in slow)
    lines, stats = sg.line_map([funcs["saxpy"]])
    assert stats["slow_path_dropped"] == len(slow) - stats["padding_dropped"]  # padding: its tail
    assert "FCHK" in lines[48] and "CALL.REL.NOINC" in lines[48] and len(lines[48]) < 20
    assert not any(op.startswith("RET") for v in lines.values() for op in v)


def test_ptxas_verbose_parsing():
    log = """ptxas info    : 0 bytes gmem
ptxas info    : Function properties for helper
    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'k1' for 'sm_75'
ptxas info    : Function properties for k1
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 38 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'k2' for 'sm_75'
ptxas info    : Function properties for k2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, 356 bytes cmem[0]
"""
    r = ptxas_mod.parse_ptxas_verbose(log, "sm_75")
    assert r["k1"] == ptxas_mod.KernelResources(38, 2048, 16, 8, 4, "sm_75")
    assert r["k2"] == ptxas_mod.KernelResources(8, 0, 0, 0, 0, "sm_75")
    assert "helper" not in r


def test_annotate_ptx_puts_one_loc_per_instruction():
    text = (EXAMPLES / "more.ptx").read_text()
    out = sg.annotate_ptx(text)
    src = text.splitlines()
    locs = [int(m.group(1)) for m in re.finditer(r"^\t\.loc 1 (\d+) 0$", out, re.M)]
    assert len(locs) == len(set(locs)) > 1000
    for n in locs:  # each names a line that starts an instruction
        code = src[n - 1].split("//")[0].strip()
        assert code and not code.startswith((".", "{", "}")) and not code.endswith(":"), (n, code)
    # the multi-line call statement gets one .loc, .local declarations survive
    call = next(i for i, s in enumerate(src, 1) if s.strip().startswith("call.uni"))
    assert call in locs and call + 1 not in locs
    assert "__local_depot14[40]" in out and out.count('.file 1 "') == 1
    Module(out, name="annotated.ptx")  # still PTX the front end reads


@pytest.mark.parametrize("bad, match", [
    ('.section .text.k,"ax"\n\t//## File "x.ptx", line abc\n', "line marker"),
    ('.section .text.k,"ax"\n        /*0000*/   ;\n', "unreadable SASS"),
    ("        /*0000*/   MOV R1, R2 ;\n", "outside a .text section"),
    ('.section .text.k,"ax"\n        /*00zz*/   MOV R1 ;\n', "unreadable SASS"),
])
def test_malformed_nvdisasm_output(bad, match):
    with pytest.raises(PtxError, match=match) as e:
        sg.parse_nvdisasm(bad, path="out.sass")
    assert e.value.path == "out.sass" and e.value.line is not None


_SAMPLE_LINES = [line for name in ("vectorAdd", "locked_count") for line in sample(name).splitlines()]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_SAMPLE_LINES) - 1), st.integers(0, 4), st.text(max_size=8)),
                max_size=12))
def test_fuzzed_nvdisasm_output_parses_or_raises_ptx_error(edits):
    """Lines dropped, duplicated, truncated or spliced with junk: the parser
    and the line map either work or raise PtxError, nothing else."""
    lines = list(_SAMPLE_LINES)
    for idx, kind, junk in edits:
        i = idx % len(lines) if lines else 0
        if not lines:
            lines.append(junk)
        elif kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif kind == 2:
            lines[i] = lines[i][: len(lines[i]) // 2]
        elif kind == 3:
            lines[i] = lines[i][:len(junk)] + junk + lines[i][len(junk):]
        else:
            lines[i] = junk
    try:
        funcs = sg.parse_nvdisasm("\n".join(lines))
    except PtxError:
        return
    sg.line_map(list(funcs.values()))


# --- the mode end to end (needs ptxas and nvdisasm) ----------------------------

def test_records_sass_without_tools_names_what_to_install(monkeypatch):
    monkeypatch.setattr(sg, "find_tool", lambda name: None)
    with pytest.raises(PtxError, match=r"accelsim\[ptx\].*nvidia-cuda-nvdisasm"):
        Device("QV100", records="sass")
    with pytest.raises(PtxError, match="records must be one of"):
        Device("QV100", records="sas")


@needs_tools
def test_same_results_in_both_modes_on_every_example_kernel():
    from accelsim.studies.sass_compare import compare

    rows = compare("QV100", 70)
    assert len(rows) >= 24
    for r in rows:
        assert r["same_results"], r["kernel"]
        assert r["sass_insts"] > 0 and r["sass_cycles"] > 0
    assert any(r["sass_insts"] != r["lowered_insts"] for r in rows)


def _records(dev, names, kernel):
    """[(warp key, [(line, opcode name, pc, flags)])] of the queued launches
    of ``kernel``, emulated."""
    out = []
    for q in dev._pending:
        if q.module is None or q.command.kernel != kernel:
            continue
        src = _core.PtxBlocks(tables(), q.command, dev.arch, 1)
        while (b := src.next_block()) is not None:
            coord, raw, warp_begin, _ = b
            recs = np.frombuffer(raw, dtype=RAW_DTYPE)
            for w in range(len(warp_begin) - 1):
                rs = recs[warp_begin[w]:warp_begin[w + 1]]
                out.append(((coord, w), list(zip(rs["line"].tolist(), [names[o] for o in rs["opcode"].tolist()],
                                                 rs["pc"].tolist(), rs["flags"].tolist()))))
    dev._pending.clear()
    return out


@needs_tools
@pytest.mark.parametrize("case, module, kernel", [("mvt", "more", "mvt1"), ("bfs", "more", "bfs_level"),
                                                  ("nested_divergent", "basic", "nested_divergent"),
                                                  ("sincos_f64", "more", "sincos_f64")])
def test_records_follow_the_sass_line_map(case, module, kernel, monkeypatch):
    """Every executed PTX instruction records exactly its line's SASS (ISA
    names), as many times as the lowered mode executes that line; the lines
    of a loop ptxas unrolled again record per SASS block instead
    (test_ptx_sass_loop_records), so they are left out here."""
    from accelsim.studies import sass_compare
    from accelsim.ptx.save import _opcode_names

    names = _opcode_names(70)
    mods = sass_compare.modules()
    full = sg.sass_map(mods[module].text, 70, mods[module].name)
    in_loops = {ln for plan in full.loops.get(kernel, []) for ln in plan.lines}
    smap = {ln: ops for ln, ops in full.lines[kernel].items() if ln not in in_loops}
    traces = {}
    for mode in ("lowered", "sass"):
        dev = Device("QV100", records=mode)
        captured = []
        monkeypatch.setattr(dev, "_flush",
                            lambda dev=dev, captured=captured: captured.extend(_records(dev, names, kernel)))
        sass_compare.CASES[case](dev, mods)
        dev._flush()
        traces[mode] = captured
    executed = {"lowered": Counter(), "sass": Counter()}
    for mode, warps in traces.items():
        for _, recs in warps:
            first_pc = {}
            for line, _, pc, _ in recs:
                first_pc[line] = min(pc, first_pc.get(line, pc))
            executed[mode].update(line for line, _, pc, _ in recs if pc == first_pc[line])
    want = {line: [sg_name(op.lstrip("!").split(".")[0]) for op in ops] for line, ops in smap.items()}
    for _, recs in traces["sass"]:
        i = 0
        while i < len(recs):
            line = recs[i][0]
            if line in in_loops:
                i += 1
                continue
            n = len(want[line])
            got = [name for _, name, _, _ in recs[i:i + n]]
            assert want[line] == got and all(r[0] == line for r in recs[i:i + n]), (line, want[line], got)
            i += n
    # lowered mode records a branch to the final ret as ptxas's guarded EXIT
    # (its lanes leave there), so the ret lines execute less often there
    text = mods[module].text.splitlines()
    rets = {n for n in smap if text[n - 1].split("//")[0].strip().startswith("ret")}
    for line, n in executed["lowered"].items():
        if smap.get(line) and line not in rets:
            assert executed["sass"][line] == n, (line, n, executed["sass"][line])
    assert sum(executed["sass"].values()) > 0


def sg_name(mnemonic: str) -> str:
    """The sm_70 table's name for a Turing mnemonic (as sass_opcode maps it)."""
    from accelsim.ptx.save import _opcode_names

    if mnemonic in _opcode_names(70):
        return mnemonic
    alias = {"S2UR": "S2R", "R2UR": "MOV", "VOTEU": "VOTE"}
    return alias.get(mnemonic, mnemonic[1:] if mnemonic.startswith("U") else mnemonic)


@needs_tools
def test_ptxas_registers_and_shared_set_occupancy():
    """matmul_tiled takes 38 registers, not the default 32: six 256-thread
    blocks fit an SM instead of eight. Shared memory is ptxas's figure."""
    from accelsim.studies import sass_compare

    mods = sass_compare.modules()
    ctas = {}
    for regs in (32, "ptxas"):
        dev = Device("QV100", regs_per_thread=regs)
        sass_compare.CASES["matmul_tiled"](dev, mods)
        res = dev.synchronize()
        ctas[regs] = (int(res.kernels["ctas_per_sm"].iloc[0]), res.kernels["occupancy_limiter"].iloc[0])
        launch = res.extra["launches"][0]
        if regs == "ptxas":
            assert launch["regs"] == launch["ptxas"].registers == 38
            assert launch["static_shared"] == launch["ptxas"].shared_bytes == 2048
            assert launch["ptxas"].stack_bytes == 0
    assert ctas[32][0] == 8 and ctas["ptxas"] == (6, "registers")
    res = sg.sass_map((EXAMPLES / "more.ptx").read_text(), 70).resources["sincos_f64"]
    assert res.stack_bytes == 40  # the slow path's .local array, on the stack


@needs_tools
def test_unknown_sass_opcode_is_a_ptx_error(monkeypatch):
    mod = Module(EXAMPLES / "basic.ptx")
    real = sg.sass_map(mod.text, 70, mod.name)
    fake = sg.SassMap(real.arch, {k: {ln: ["NOTANOP.X"] for ln in v} for k, v in real.lines.items()},
                      real.resources, real.stats, real.sass)
    monkeypatch.setattr(sg, "sass_map", lambda *a, **k: fake)
    dev = Device("QV100", records="sass")
    x = dev.zeros(4, np.float32)
    mod.get_function("vectorAdd")[1, 32](x, x, x, np.int32(4))
    with pytest.raises(PtxError, match="not in the ISA table sm_70.*NOTANOP.X"):
        dev.synchronize()
