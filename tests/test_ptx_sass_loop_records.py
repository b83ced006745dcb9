"""SASS-guided recording of loops ptxas unrolled again (docs/ptx.md, "Basic
blocks"): a warp that runs the PTX loop n times records what ptxas's SASS
blocks execute for n (the main loop floor(n/k) times, the chunk and the
remainder loop for the rest, each guard), not one copy of the loop control
per PTX iteration. The prediction is the block check's: the emulator's
entry trip counts (records="ptx") through ptxas's guards
(``sass_unroll.region_counts``), times each block's instructions."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from accelsim.ptx import Device
from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_guided as sg
from accelsim.ptx import sass_unroll as su

HAVE_TOOLS = sg.find_tool("ptxas") is not None and sg.find_tool("nvdisasm") is not None
pytestmark = pytest.mark.skipif(not HAVE_TOOLS, reason="ptxas and nvdisasm not installed "
                                "(pip install 'accelsim[ptx]': nvidia-cuda-nvcc, nvidia-cuda-nvdisasm)")
i32, f32 = np.int32, np.float32
UNROLLED = ["gemm", "atax1", "atax2", "bicg1", "bicg2", "mvt1", "mvt2", "mm2_1", "mm2_2"]


def _module(kernel):
    from accelsim.studies import sass_compare

    return next(m for m in sass_compare.modules().values() if kernel in m.kernel_names)


def _smap(kernel):
    module = _module(kernel)
    return sg.sass_map(module.text, 70, module.name)


def _run_atax1(dev, nx, ny):
    rng = np.random.default_rng(nx * 100 + ny)
    dA = dev.to_device(rng.integers(-4, 4, (nx, ny)).astype(f32))
    dx, dtmp = dev.to_device(rng.integers(-4, 4, ny).astype(f32)), dev.zeros(nx, f32)
    _module("atax1").get_function("atax1")[(nx + 63) // 64, 64](dA, dx, dtmp, i32(nx), i32(ny))


def _loop_records(kernel, launch) -> tuple[int, int, int]:
    """(SASS-guided records of the unrolled loop's lines, what ptxas's blocks
    run for the emulator's trip counts, records of every other line minus
    what the line map gives them)."""
    from accelsim.studies.block_check import entry_trips, line_counts

    smap = _smap(kernel)
    (plan,) = smap.loops[kernel]
    home = next(b for b, ls in enumerate(smap.ptx_blocks.lines) if ls[0] == plan.lines[0])
    blocks, mapping = smap.blocks[kernel], smap.block_map[kernel]
    factors = sb.unroll_factors(blocks, mapping, home, smap.ptx_blocks)
    seqs: dict[str, list] = {}
    dev = Device("QV100", records="ptx", regs_per_thread=32)
    lines, _ = line_counts(dev, lambda: launch(dev), seqs)[kernel]
    trips = entry_trips(smap.ptx_blocks, home, seqs[kernel])
    sizes = {b.name: len(b.insts) for b in blocks}
    predicted = sum(c * sizes[b] for b, c in su.region_counts(blocks, factors, trips).items())
    sdev = Device("QV100", records="sass")
    got, _ = line_counts(sdev, lambda: launch(sdev))[kernel]
    ours = set(plan.lines)
    in_loop = sum(c for ln, c in got.items() if ln in ours)
    others = sum(c for ln, c in got.items() if ln not in ours)
    others_map = sum(c * len(smap.lines[kernel].get(ln, [])) for ln, c in lines.items() if ln not in ours)
    return in_loop, predicted, others - others_map


@pytest.mark.parametrize("ny", [8, 20, 24, 28, 36, 44, 124])
def test_atax1_records_what_the_sass_blocks_run(ny):
    """atax1's PTX loop runs ny/4 times (NVRTC unrolled it by 4 already);
    ptxas's main loop takes 4 of those per pass: n = 2, 5, 6, 7, 9, 11, 31
    cover every remainder. The loop's records equal the blocks' count, and
    the other lines record what the line map gives them."""
    in_loop, predicted, others = _loop_records("atax1", lambda dev: _run_atax1(dev, 45, ny))
    assert in_loop == predicted
    assert others == 0


CASE_OF = {"gemm": "gemm", "atax1": "atax+bicg", "atax2": "atax+bicg", "bicg1": "atax+bicg",
           "bicg2": "atax+bicg", "mvt1": "mvt", "mvt2": "mvt", "mm2_1": "2mm", "mm2_2": "2mm"}


@pytest.mark.parametrize("kernel", UNROLLED)
def test_example_kernels_record_what_the_sass_blocks_run(kernel):
    """Every unrolled example loop with the tests' inputs (several trip
    counts per launch: gemm's and 2mm's warps differ)."""
    from accelsim.studies import sass_compare

    mods = sass_compare.modules()
    in_loop, predicted, others = _loop_records(kernel, lambda dev: sass_compare.CASES[CASE_OF[kernel]](dev, mods))
    assert in_loop == predicted
    assert others == 0


@pytest.mark.parametrize("kernel", UNROLLED)
def test_every_unrolled_example_loop_has_a_recording_plan(kernel):
    """Each loop ptxas unrolled again in the example kernels is recorded per
    SASS block, and the plan reproduces the blocks' instructions for every
    trip count up to 64 (checked by recording_plan itself) and here by sum."""
    smap = _smap(kernel)
    (plan,) = smap.loops[kernel]
    assert plan.k == 4 and not smap.loops_unread[kernel]
    home = next(b for b, ls in enumerate(smap.ptx_blocks.lines) if ls[0] == plan.lines[0])
    blocks = smap.blocks[kernel]
    factors = sb.unroll_factors(blocks, smap.block_map[kernel], home, smap.ptx_blocks)
    sizes = {b.name: len(b.insts) for b in blocks}
    body = sum(len(ops) for ops in plan.body.values())
    for n in range(1, 41):
        counts = su.region_counts(blocks, factors, Counter({n: 1}))
        want = sum(c * sizes[b] for b, c in counts.items())
        got = n * body + (n // 4) * len(plan.every_k) + len(plan.at_exit[su.LoopRecords.reduce(n, 4)])
        assert got == want, n


def test_sass_guided_kernels_still_compute_the_right_answer():
    """The recording changes what the timing model sees, not what the kernel
    computes: atax1 in SASS-guided mode against NumPy."""
    dev = Device("QV100", records="sass")
    nx, ny = 45, 38
    rng = np.random.default_rng(1)
    A, x = rng.integers(-4, 4, (nx, ny)).astype(f32), rng.integers(-4, 4, ny).astype(f32)
    dA, dx, dtmp = dev.to_device(A), dev.to_device(x), dev.zeros(nx, f32)
    _module("atax1").get_function("atax1")[1, 64](dA, dx, dtmp, i32(nx), i32(ny))
    np.testing.assert_array_equal(dtmp.copy_to_host(), A @ x)


def test_a_loop_holding_other_lines_code_is_not_planned():
    """A loop whose SASS holds code of a PTX line outside the loop block
    would be recorded twice (by that line too): it keeps per-line records."""
    smap = _smap("atax1")
    (plan,) = smap.loops["atax1"]
    home = next(b for b, ls in enumerate(smap.ptx_blocks.lines) if ls[0] == plan.lines[0])
    blocks = smap.blocks["atax1"]
    factors = sb.unroll_factors(blocks, smap.block_map["atax1"], home, smap.ptx_blocks)
    with pytest.raises(su.Unreadable, match="outside the loop block"):
        su.recording_plan(blocks, factors, list(plan.lines)[1:])
