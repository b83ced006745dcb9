"""Skinny tensor-core GEMM (decode: a few activation rows times a weight
matrix) and the split-K reduction that follows it.

``out[rows][N] = x[rows][K] @ w[N][K]^T`` (weights stored [out][in], as
``nn.Linear`` keeps them). A CTA of four warps owns 16 output columns and a
K range (split-K: ``grid.z`` ranges); per iteration it streams 16 weight rows
x 256 K (each warp four contiguous 512-byte loads: every weight byte is read
once) plus the activation slice (read by every CTA: L2 reuse), stages them
in shared memory, and runs 8 HMMA steps per warp between two barriers.
Partial sums meet in shared memory; warp 0 writes fp16 results, or fp32
partials to a workspace that ``splitk_reduce`` sums.
"""
from __future__ import annotations

from typing import Iterator

from accelsim.tracegen.llm.common import HALF, SHMEM_BASE, GenKernel, lanes, ldg128, lds, row_stores, sts
from accelsim.tracegen.templates import Op, Program, WarpTemplate, block_text

TILE_N = 16   # output columns per CTA
TILE_K = 256  # K per iteration (512 bytes of each weight row)
WARPS = 4
GEMM_NAME = "volta_fp16_s884gemm_fp16_16x256_ldg8_splitk_tn"
REDUCE_NAME = "_Z19splitKreduce_kernelILi32ELi16EfffEv18cublasSplitKParamsIT1_EPKS1_PKT2_PS6_PKT3_"


def _rows_of(warp: int, rows: int) -> range:
    per = -(-rows // WARPS)
    return range(min(rows, warp * per), min(rows, (warp + 1) * per))


def _iteration(nx: int) -> list[Op]:
    ops = [ldg128(20 + 4 * r, 2) for r in range(4)] + [ldg128(36 + 4 * x, 4) for x in range(nx)]
    ops += [sts(128, 20 + 4 * i) for i in range(4 + nx)] + [Op("BAR.SYNC")]
    ops += [lds(128, 48 + 2 * i) for i in range(8)]
    ops += [Op(f"HMMA.884.F32.F32.STEP{i % 4}", 8 + 2 * (i // 4), (48 + 2 * i, 50 + 2 * (i % 3), 8 + 2 * (i // 4)))
            for i in range(8)]
    return ops + [Op("IADD3", 2, (2,)), Op("IADD3", 4, (4,)), Op("ISETP.GE.AND", None, (2,)),
                  Op("BAR.SYNC"), Op("BRA")]


def _gemm_program(nx: int, iterations: int, stores: list[Op] | None) -> WarpTemplate:
    """``stores`` None: a warp that only contributes its partial sums."""
    p = Program().code([Op("S2R", 0), Op("S2R", 1), Op("S2R", 3), Op("IMAD", 2, (1, 0)),
                        Op("IMAD.WIDE", 2, (2, 3)), Op("IMAD.WIDE", 4, (0, 3)), Op("LEA", 5, (0,))]
                       + [Op("CS2R", 8 + 2 * i) for i in range(4)] + [Op("ISETP.GE.AND", None, (0,))])
    p.loop(_iteration(nx), iterations)
    p.code([sts(128, 8), Op("BAR.SYNC")])
    if stores is not None:
        p.code([lds(128, 12 + 4 * i) for i in range(4)] + [Op("FADD", 8 + i, (8 + i, 12 + i)) for i in range(8)])
        p.code([Op("F2F.F16.F32", 8 + i, (8 + i,)) for i in range(4)] + stores)
    return p.code([Op("EXIT")]).template()


def _epilogue(rows: int, n: int, split: int) -> tuple[list[Op], list[int]]:
    """Warp 0's stores and the byte offset of each (from the CTA's origin in
    the output, or in the workspace when split)."""
    if split > 1:  # fp32 partials, contiguous per CTA: [split][tile][rows x 16]
        size = rows * TILE_N * 4
        ops = [Op("STG.E.128.SYS", None, (6, 8), lanes(-(-(size - o) // 16)), stride=16)
               for o in range(0, size, 512)]
        return ops, list(range(0, size, 512))
    pairs = row_stores(rows, 2, 16, n * HALF, "STG.E.128.SYS", 8)
    return [op for op, _ in pairs], [first * n * HALF for _, first in pairs]


def gemm(rows: int, k: int, n: int, x: int, w: int, out: int, split: int = 1) -> GenKernel:
    """``out`` is the fp16 result, or the fp32 workspace when ``split`` > 1."""
    if n % TILE_N or k % (TILE_K * split):
        raise ValueError(f"gemm {rows}x{n}x{k}: N must be a multiple of {TILE_N} and K of "
                         f"{TILE_K} x split ({split})")
    tiles, iterations = n // TILE_N, k // (TILE_K * split)
    stores, offsets = _epilogue(rows, n, split)
    nxs = [len(_rows_of(wp, rows)) for wp in range(WARPS)]
    slots = 4 + max(nxs)
    t = [_gemm_program(nxs[wp], iterations, stores if wp == 0 else None) for wp in range(WARPS)]

    def warp_addrs(j: int, s: int, wp: int) -> list[int]:
        addrs = []
        for i in range(iterations):
            k0 = (s * iterations + i) * TILE_K
            addrs += [w + ((TILE_N * j + 4 * wp + r) * k + k0) * HALF for r in range(4)]
            addrs += [x + (b * k + k0) * HALF for b in _rows_of(wp, rows)]
            addrs += [SHMEM_BASE + (wp * slots + q) * 512 for q in range(4 + nxs[wp])]
            addrs += [SHMEM_BASE + 512 * q for q in range(8)]
        addrs.append(SHMEM_BASE + WARPS * slots * 512 + 512 * wp)
        if wp == 0:
            addrs += [SHMEM_BASE + WARPS * slots * 512 + 512 * q for q in range(4)]
            origin = out + ((s * tiles + j) * rows * TILE_N * 4 if split > 1 else TILE_N * j * HALF)
            addrs += [origin + o for o in offsets]
        return addrs

    def blocks() -> Iterator[str]:
        for s in range(split):
            for j in range(tiles):
                yield block_text((j, 0, s), [t[wp].text(wp, warp_addrs(j, s, wp)) for wp in range(WARPS)])

    total = tiles * split * sum(x.instructions for x in t)
    shmem = (WARPS * slots + WARPS) * 512
    return GenKernel(GEMM_NAME, (tiles, 1, split), (32 * WARPS, 1, 1), 96, shmem, total, blocks)


def _reduce_program(split: int, loads: list[int], stores: list[Op]) -> WarpTemplate:
    body = [Op("LDG.E.128.SYS", 12 + 4 * q, (2,), lanes(m), stride=16) for q, m in enumerate(loads)]
    body += [Op("FADD", 8 + i, (8 + i, 12 + i)) for i in range(4)] + [Op("IADD3", 2, (2,))]
    p = Program().code([Op("S2R", 0), Op("S2R", 1), Op("IMAD", 2, (1, 0)), Op("IMAD.WIDE", 2, (2, 3)),
                        Op("ISETP.GE.AND", None, (2,)), Op("CS2R", 8), Op("CS2R", 10)])
    p.loop(body, split)
    p.code([Op("F2F.F16.F32", 8 + i, (8 + i,)) for i in range(4)] + [Op("PRMT", 8, (8, 9)),
                                                                       Op("PRMT", 9, (10, 11))])
    return p.code(stores + [Op("EXIT")]).template()


def splitk_reduce(rows: int, n: int, split: int, workspace: int, out: int) -> GenKernel:
    """Sums the split-K partials of each 16-column tile (one warp per tile)
    and writes the fp16 result."""
    tiles = n // TILE_N
    size = rows * TILE_N * 4  # bytes of one tile's partials per split
    loads = [-(-(size - o) // 16) if size - o < 512 else 32 for o in range(0, size, 512)]
    pairs = row_stores(rows, 4, 8, n * HALF, "STG.E.64.SYS", 8)
    t = _reduce_program(split, loads, [op for op, _ in pairs])
    grid = -(-tiles // WARPS)

    def blocks() -> Iterator[str]:
        for c in range(grid):
            texts = []
            for wp in range(min(WARPS, tiles - c * WARPS)):
                tile = c * WARPS + wp
                addrs = [workspace + (s * tiles + tile) * size + 512 * q
                         for s in range(split) for q in range(len(loads))]
                addrs += [out + (first * n + TILE_N * tile) * HALF for _, first in pairs]
                texts.append(t.text(wp, addrs))
            yield block_text((c, 0, 0), texts)

    return GenKernel(REDUCE_NAME, (grid, 1, 1), (32 * WARPS, 1, 1), 32, 0, t.instructions * tiles, blocks)
