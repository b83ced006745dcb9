"""Volta's own SASS in SASS-guided mode (docs/ptx.md, "Arches"): CUDA 12's
ptxas compiles the module for sm_70 (its .target and .version lowered),
nvdisasm 13 reads the cubin with Turing's decoder, and the control-flow
graph is rebuilt from the listing where nvdisasm draws none."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import numpy as np
import pytest

import accelsim
from accelsim.errors import PtxError
from accelsim.ptx import EXAMPLES, Module
from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_guided as sg
from accelsim.ptx.ptxas import find_tool, retarget, run_ptxas, targets

TOOLS = find_tool("ptxas") is not None and find_tool("nvdisasm") is not None
needs_tools = pytest.mark.skipif(not TOOLS, reason="needs ptxas and nvdisasm (pip install 'accelsim[ptx]')")
needs_volta = pytest.mark.skipif(not (TOOLS and targets(70)),
                                 reason="needs a ptxas that targets sm_70 (pip install nvidia-cuda-nvcc-cu12)")
TRACE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "traces" / "bfs_rodinia31_sm70"


def test_retarget_lowers_target_and_version_in_place():
    text = ".version 9.0\n.target sm_75\n.address_size 64\n"
    out = retarget(text, 70, (8, 8))
    assert out == ".version 8.8\n.target sm_70\n.address_size 64\n"
    assert retarget(".version 7.0\n.target sm_60\n", 70, (8, 8)) == ".version 7.0\n.target sm_60\n"


def test_read_as_turing_refuses_what_is_not_a_volta_cubin():
    with pytest.raises(PtxError, match="not a 64-bit ELF"):
        sg.read_as_turing(b"not an elf", 70, "m.ptx")
    elf = bytearray(64)
    elf[:5] = b"\x7fELF\x02"
    elf[48:52] = (0x4B054B).to_bytes(4, "little")  # an sm_75 cubin's flags
    with pytest.raises(PtxError, match="do not name sm_70"):
        sg.read_as_turing(bytes(elf), 70, "m.ptx")


def _graph_key(cfg):
    out = {}
    for routine, blocks in cfg.items():
        first = {b.name: b.addresses[0] for b in blocks}
        out[routine] = {(tuple(b.addresses), tuple(sorted(first[s] for s in b.succs))) for b in blocks}
    return out


@needs_tools
@pytest.mark.parametrize("name", ["basic.ptx", "more.ptx", "bfs_rodinia.ptx", "lock.ptx"])
def test_graph_from_listing_is_nvdisasms_graph(name):
    """Where nvdisasm draws the graph (Turing), the one rebuilt from its
    listing has the same blocks and edges in every routine."""
    text = (EXAMPLES / name).read_text()
    rc, log, cubin = run_ptxas(sg.annotate_ptx(text), "sm_75", ("-lineinfo",), keep_cubin=True)
    assert rc == 0, log
    nvdisasm = find_tool("nvdisasm")
    funcs = sg.parse_nvdisasm(sg._run_nvdisasm(nvdisasm, cubin, ["-g", "-c"]).stdout)
    drawn = sb.parse_bbcfg(sg._run_nvdisasm(nvdisasm, cubin, ["-bbcfg", "-poff"]).stdout)
    rebuilt = sb.cfg_from_listing(funcs)
    assert _graph_key(rebuilt) == _graph_key(drawn)
    # a wrong rule shows: dropping every fall-through edge changes the graph
    for blocks in rebuilt.values():
        for b in blocks:
            b.succs = [s for s in b.succs if not s.startswith(b.function + ".BB")]
    assert _graph_key(rebuilt) != _graph_key(drawn)


@needs_volta
def test_volta_gpu_records_volta_sass():
    text = (EXAMPLES / "basic.ptx").read_text()
    m = sg.sass_map(text, 70, "basic.ptx", own_volta=True)
    assert m.arch == 70 and not m.fallback
    ops = [op for lines in m.lines.values() for seq in lines.values() for op in seq]
    assert not any(re.match(r"!?(U[A-Z]|S2UR|R2UR)", op) for op in ops)  # Volta: no uniform datapath
    assert "!SHFL.IDX" in m.lines["vectorAdd"][34]  # the @!PT prologue shuffle, issued by no lane
    assert sg.sass_map(text, 70, "basic.ptx").arch == 75  # the default stays Turing's


@needs_volta
def test_volta_run_gives_the_same_answer_and_names_its_sass():
    n = 1000
    a, b = np.arange(n, dtype=np.float32), np.full(n, 2.0, np.float32)
    dev = accelsim.ptx.Device("QV100", records="sass", volta_sass=True)
    da, db, dc = dev.to_device(a), dev.to_device(b), dev.malloc(4 * n)
    Module(EXAMPLES / "basic.ptx").get_function("vectorAdd")[(n + 255) // 256, 256](da, db, dc, np.int32(n))
    res = dev.synchronize()
    assert res.extra["launches"][0]["sass_source"].startswith("SASS (sm_70)")
    np.testing.assert_array_equal(dc.copy_to_host().view(np.float32)[:n], a + b)


def _trace_opcodes(kernel_file: Path) -> list[str]:
    ops: dict[int, str] = {}
    for line in kernel_file.read_text().splitlines():
        p = line.split()
        if len(p) > 4 and re.fullmatch(r"[0-9a-f]{4}", p[0]):
            ops.setdefault(int(p[0], 16), p[3 + int(p[2])].split(".")[0])
    return [ops[a] for a in sorted(ops)]


@needs_volta
@pytest.mark.skipif(not TRACE.is_dir(), reason="needs ../shared/data (the real Volta BFS trace)")
def test_volta_listing_is_closer_to_the_real_volta_sass_than_turings():
    """The BFS kernels' SASS for sm_70 against the opcodes a real Volta ran
    (the NVBit trace, per PC): the same prologue, and closer than Turing's."""
    text = (EXAMPLES / "bfs_rodinia.ptx").read_text()
    own, turing = (sg.sass_map(text, 70, "bfs_rodinia.ptx", own_volta=v) for v in (True, False))
    for kernel, trace_file in (("bfs_expand", "kernel-1.traceg"), ("bfs_advance", "kernel-2.traceg")):
        real = _trace_opcodes(TRACE / trace_file)
        ratio = {}
        for name, m in (("volta", own), ("turing", turing)):
            ops = [i.opcode.split(".")[0] for b in m.blocks[kernel] for i in b.insts]
            ratio[name] = difflib.SequenceMatcher(a=real, b=ops, autojunk=False).ratio()
            if name == "volta":
                assert ops[:7] == real[:7] == ["IMAD", "SHFL", "S2R", "S2R", "IMAD", "ISETP", "EXIT"]
        assert ratio["volta"] > ratio["turing"] + 0.05, ratio


@needs_volta
def test_volta_sass_fits_the_graph_on_every_example_kernel():
    """The block check on Volta's own SASS (the graph rebuilt from the
    listing): every SASS block of the 27 example kernels mapped, no count
    against the graph, the unrolled loops counted from their guards."""
    from accelsim.studies import block_check, sass_compare

    rows = [r for case in sass_compare.CASES for r in block_check.check_case(case, volta_sass=True)]
    assert len(rows) >= 27
    for r in rows:
        assert r["mapped"] == r["sass_blocks"] and r["violations"] == [] and r["in_restructured_loops"] == [], r
    counted = {r["kernel"] for r in rows for loop in r["unrolled_loops"] if loop["sass_counts"]}
    assert counted == {"gemm", "atax1", "atax2", "bicg1", "bicg2", "mvt1", "mvt2", "mm2_1", "mm2_2"}


@needs_volta
def test_volta_sass_vectoradd_issues_the_prologue_shuffle_once_per_warp():
    """Against the trace (written from SASS without it), Volta's SASS records
    exactly one warp instruction more per warp: the @!PT SHFL.IDX no lane runs."""
    from accelsim.studies import ptx_vs_sass as pv
    from accelsim.studies.record_modes import VOLTA, vecadd_rows

    rows = {r["mode"]: r for r in vecadd_rows(volta_sass=True)}
    volta, turing = rows[VOLTA], rows["sass"]
    assert turing["simulated"] == turing["trace"]
    assert volta["simulated"] - volta["trace"] == pv.VECADD_N // 32
    assert volta["within_target"] is None and abs(volta["cycles_error_pct"]) <= 5
