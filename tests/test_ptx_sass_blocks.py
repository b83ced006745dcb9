"""Basic blocks on both sides of ptxas (accelsim.ptx.sass_blocks,
accelsim.studies.block_check; docs/ptx.md, "Basic blocks").

The parser tests read committed nvdisasm output (tests/nvdisasm_samples:
``nvdisasm -bbcfg -poff`` and ``-g -c`` of examples/bfs_rodinia.ptx for
sm_75), so they run without CUDA tools; the checks against ptxas's graph on
the example kernels need ptxas and nvdisasm, the suite kernels nvcc and
../shared/data/apps."""
from __future__ import annotations

from pathlib import Path

import pytest

import accelsim
from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_guided as sg

SAMPLES = Path(__file__).parent / "nvdisasm_samples"
BFS_PTX = (Path(accelsim.__file__).parent / "ptx" / "examples" / "bfs_rodinia.ptx").read_text()
APPS = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "apps"
HAVE_TOOLS = sg.find_tool("ptxas") is not None and sg.find_tool("nvdisasm") is not None
needs_tools = pytest.mark.skipif(not HAVE_TOOLS, reason="ptxas and nvdisasm not installed "
                                 "(pip install 'accelsim[ptx]': nvidia-cuda-nvcc, nvidia-cuda-nvdisasm)")


def _sample_cfg():
    cfg = sb.parse_bbcfg((SAMPLES / "bfs_rodinia.bbcfg.dot").read_text())
    sb.attach(cfg, sg.parse_nvdisasm((SAMPLES / "bfs_rodinia.sass").read_text()))
    return cfg


def _line(text: str, code: str) -> int:
    return next(n for n, raw in enumerate(text.splitlines(), 1) if raw.strip().startswith(code))


def test_ptx_blocks_split_at_labels_and_after_branches():
    ptx = sb.ptx_blocks(BFS_PTX)
    adv = [b for b, f in enumerate(ptx.function) if f == "bfs_advance"]
    assert len(adv) == 4  # setup, frontier test, update, ret
    a, b, c, d = adv
    assert ptx.succs[a] == [d, b] and ptx.succs[b] == [d, c] and ptx.succs[c] == [d] and ptx.succs[d] == []
    assert ptx.block[_line(BFS_PTX, "ld.param.u64 \t%rd3, [bfs_advance_param_0]")] == a
    exp = [b for b, f in enumerate(ptx.function) if f == "bfs_expand"]
    loop = ptx.block[_line(BFS_PTX, "ld.global.s32 \t%rd10, [%rd29]")]
    assert loop in exp and loop in ptx.succs[ptx.block[_line(BFS_PTX, "@%p5 bra")]]


def test_bbcfg_parser_reads_blocks_edges_and_offsets():
    cfg = _sample_cfg()
    assert set(cfg) == {"bfs_advance", "bfs_expand"}
    adv = cfg["bfs_advance"]
    assert [b.name for b in adv] == ["bfs_advance", ".L_x_3", "BB0", ".L_x_4", "BB1", ".L_x_5"]
    assert [b.addresses[0] for b in adv] == [0x0, 0x50, 0x60, 0xa0, 0xb0, 0x140]
    assert adv[0].succs == [".L_x_3"] and adv[-1].succs == [] and adv[-1].preds == ["BB1"]
    assert all(len(b.insts) == len(b.addresses) for b in adv)  # every offset found in the -g listing
    loop = next(b for b in cfg["bfs_expand"] if b.name == ".L_x_1")
    assert loop.name in loop.succs  # the edge loop branches back to itself
    # up to the final EXIT at 0x310: the padding after it (self-branch, NOPs) is not a block
    assert sum(len(b.addresses) for b in cfg["bfs_expand"]) == 0x320 // 16


def test_sass_blocks_map_to_the_ptx_blocks_they_run_for():
    cfg, ptx = _sample_cfg(), sb.ptx_blocks(BFS_PTX)
    adv = [b for b, f in enumerate(ptx.function) if f == "bfs_advance"]
    mapping = sb.map_blocks(cfg["bfs_advance"], ptx)
    # the guarded EXITs are the PTX branches to ret; BB1 holds one SASS line
    # ptxas sank from the frontier test's branch but runs for the update block
    assert [mapping[b.name] for b in cfg["bfs_advance"]] == [adv[0], adv[0], adv[1], adv[1], adv[2], adv[3]]
    assert not sb.restructured(cfg["bfs_advance"], mapping)


def test_flow_check_accepts_true_counts_and_catches_a_wrong_mapping():
    cfg, ptx = _sample_cfg(), sb.ptx_blocks(BFS_PTX)
    blocks = cfg["bfs_advance"]
    mapping = sb.map_blocks(blocks, ptx)
    a, b, c, d = [x for x, f in enumerate(ptx.function) if f == "bfs_advance"]
    counts = {a: 16, b: 12, c: 5, d: 16}  # 16 warps, 12 with lanes in range, 5 updating
    assert sb.flow_violations(blocks, mapping, counts, 16, ptx) == ([], [])
    wrong = dict(mapping, BB1=a)  # the update block said to run once per warp, like the setup
    bad, _ = sb.flow_violations(blocks, wrong, counts, 16, ptx)
    assert bad and "BB1 ran 16 times" in bad[0]
    bad, _ = sb.flow_violations(blocks, mapping, counts, 15, ptx)
    assert bad == ["entry block bfs_advance ran 16 times for 15 warps"]


@needs_tools
def test_relocation_moves_only_code_ptxas_took_out_of_a_loop():
    from accelsim.studies import sass_compare

    m = sass_compare.modules()["basic"]
    smap = sg.sass_map(m.text, 70, m.name)
    ptx, nests = smap.ptx_blocks, sb._loop_nests(smap.ptx_blocks)
    moved, n = sb.relocate(smap.blocks["histogram"], smap.block_map["histogram"], ptx)
    assert n == smap.stats["histogram"]["moved_to_block"] > 0
    for addr, line in moved.items():
        inst = next(i for b in smap.blocks["histogram"] for i in b.insts if i.address == addr)
        assert not inst.pred and nests[ptx.block[inst.line]] != nests[ptx.block[line]]
    # the reconvergence after the zeroing loop runs once, not once per iteration
    bsync = next(i for b in smap.blocks["histogram"] for i in b.insts
                 if i.opcode == "BSYNC" and nests[ptx.block[i.line]])
    assert bsync.address in moved and not nests[ptx.block[moved[bsync.address]]]


@needs_tools
def test_every_example_kernel_fits_ptxas_cfg():
    """Warp executions of the PTX blocks, counted by the emulator, fit
    ptxas's graph on every example kernel; what does not is only inside
    loops ptxas unrolled again (the Polybench kernels, gemm)."""
    from accelsim.studies import block_check, sass_compare

    rows = [r for case in sass_compare.CASES for r in block_check.check_case(case)]
    assert len(rows) >= 27
    for r in rows:
        assert r["mapped"] == r["sass_blocks"] and r["violations"] == [], r
    loose = {r["kernel"] for r in rows if r["in_restructured_loops"]}
    assert loose <= {"gemm", "atax1", "atax2", "bicg1", "bicg2", "mvt1", "mvt2", "mm2_1", "mm2_2"}, loose
    # Each of those loops is one ptxas unrolled: a 4-copy main loop, a 2-copy
    # chunk and a one-copy remainder loop (gemm's second: rotated, not copied).
    unrolled = {r["kernel"]: list(r["unrolled"].values()) for r in rows if r["unrolled"]}
    assert loose <= set(unrolled), (loose, unrolled)
    for kernel in loose:
        assert [4, 2, 1] in unrolled[kernel], (kernel, unrolled[kernel])
    assert unrolled["gemm"] == [[4, 2, 1], [1]]


@needs_tools
def test_unroll_factors_count_the_body_copies_of_each_sass_block():
    """atax1's inner loop: guards and loop control hold no copy, the main
    loop four, the chunk after it two, the remainder loop one; a loop ptxas
    only split around a retry (histogram's atomic loops) has no factors."""
    from accelsim.studies import sass_compare

    mods = sass_compare.modules()
    for kernel, want in (("atax1", [0, 0, 0, 0, 1, 2, 4]), ("histogram", [])):
        module = next(m for m in mods.values() if kernel in m.kernel_names)
        smap = sg.sass_map(module.text, 70, module.name)
        blocks, mapping = smap.blocks[kernel], smap.block_map[kernel]
        homes = sb.restructured(blocks, mapping)
        assert homes, kernel
        for home in homes:
            f = sb.unroll_factors(blocks, mapping, home, smap.ptx_blocks)
            assert sorted(f.values()) == want, (kernel, f)


# files of the suites that compile alone with nvcc 13 (parboil's histogram,
# its scan and sort, sad with a value ptxas sinks to a join, cutcp)
SUITE_FILES = ["parboil/benchmarks/histo/src/cuda/histo_final.cu",
               "parboil/benchmarks/mri-gridding/src/cuda/scanLargeArray.cu",
               "parboil/benchmarks/mri-gridding/src/cuda/sort.cu",
               "parboil/benchmarks/sad/src/cuda/largerBlocks.cu",
               "parboil/benchmarks/cutcp/src/cuda_base/cutoff.cu"]


@needs_tools
@pytest.mark.skipif(not APPS.is_dir(), reason="needs ../shared/data/apps (the CUDA suites as source)")
@pytest.mark.parametrize("rel", SUITE_FILES)
def test_suite_kernels_fit_ptxas_cfg(rel):
    from cuda_util import need_toolchain

    from accelsim.studies import block_check

    rows = block_check.check_suite_file(APPS / rel, need_toolchain())
    assert rows and all(r["compiled"] for r in rows), rows
    for r in rows:
        assert r["problems"] == [], r
