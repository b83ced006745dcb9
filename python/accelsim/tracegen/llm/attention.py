"""Decode attention over a KV cache: one CTA of four warps per (head,
sequence). The warps take turns over the sequence's cached positions, a
512-byte chunk of keys at a time (four positions of a 64-wide head): dot
products with the query, a warp-shuffle reduction, an online soft-max (max,
exp2, rescale), then the same chunk of values accumulated. The loop length
follows the sequence's length, so CTAs of one launch differ and the kernel
grows from one decode step to the next. Partial results meet in shared
memory; warp 0 normalises and writes the head's output.
"""
from __future__ import annotations

from typing import Iterator

from accelsim.tracegen.model import FULL_MASK
from accelsim.tracegen.llm.common import HALF, SHMEM_BASE, GenKernel, lanes, ldg128, lds, sts
from accelsim.tracegen.templates import Op, Program, WarpTemplate, block_text

WARPS = 4
NAME = "_Z22decode_attention_f16x4PK6__halfS1_S1_PKiPS_ii"


def _chunk(mask: int) -> list[Op]:
    ops = [ldg128(20, 2, mask), Op("HMUL2", 24, (20, 10)), Op("HFMA2", 24, (21, 11, 24)),
           Op("HFMA2", 24, (22, 12, 24)), Op("HFMA2", 24, (23, 13, 24)), Op("HADD2.F32", 25, (24,))]
    for _ in range(3):  # the eight lanes of one position
        ops += [Op("SHFL.BFLY", 26, (25,)), Op("FADD", 25, (25, 26))]
    ops += [Op("FMNMX", 27, (25, 27)), Op("FADD", 28, (25, 27)), Op("FMUL", 28, (28,)),
            Op("MUFU.EX2", 29, (28,)), Op("FFMA", 30, (30, 31, 29)), ldg128(32, 4, mask)]
    ops += [Op("HFMA2", 36 + i, (32 + i, 29, 36 + i)) for i in range(4)]
    return ops + [Op("IADD3", 2, (2,)), Op("IADD3", 4, (4,)), Op("ISETP.GE.AND", None, (2,)), Op("BRA")]


def _program(full: int, tail: int, head_lanes: int, lead: bool) -> WarpTemplate:
    p = Program().code([Op("S2R", 0), Op("S2R", 1), Op("S2R", 3), Op("IMAD", 2, (1, 0)),
                        Op("IMAD.WIDE", 2, (2, 3)), Op("IMAD.WIDE", 4, (2, 3)),
                        ldg128(10, 6, lanes(head_lanes)), Op("MOV", 27), Op("CS2R", 30),
                        Op("CS2R", 36), Op("CS2R", 38)])
    p.loop(_chunk(FULL_MASK), full)
    if tail:
        p.code(_chunk(lanes(tail)))
    p.code([sts(32, 27, mask=1), sts(32, 30, mask=1), sts(128, 36, mask=lanes(head_lanes)), Op("BAR.SYNC")])
    if lead:
        p.code([lds(128, 40 + 4 * i, broadcast=True) for i in range(3)]
               + [Op("FMNMX", 27, (27, 40 + 4 * i)) for i in range(3)]
               + [Op("FADD", 30, (30, 41 + 4 * i)) for i in range(3)]
               + [Op("MUFU.EX2", 44, (27,)) for _ in range(4)]
               + [Op("FFMA", 36 + i, (36 + i, 44)) for i in range(4)] + [Op("MUFU.RCP", 45, (30,))]
               + [Op("FMUL", 36 + i, (36 + i, 45)) for i in range(4)]
               + [Op("F2F.F16.F32", 36 + i, (36 + i,)) for i in range(4)]
               + [Op("STG.E.128.SYS", None, (6, 36), lanes(head_lanes), stride=16)])
    return p.code([Op("EXIT")]).template()



def attention(rows: int, heads: int, head_dim: int, max_len: int, lengths: list[int], qkv: int,
              k_cache: int, v_cache: int, out: int) -> GenKernel:
    """``lengths[b]``: positions cached for sequence b (the new one included)."""
    if 256 % head_dim or head_dim % 8:
        raise ValueError(f"head_dim {head_dim}: must divide 256 and be a multiple of 8")
    per_chunk = 256 // head_dim          # positions per 512-byte chunk
    lanes_per_pos = head_dim // 8
    head_lanes = head_dim * HALF // 16
    hidden = heads * head_dim
    cache: dict[tuple, WarpTemplate] = {}

    def plan(length: int, wp: int) -> tuple[int, int]:
        """Full chunks of warp wp, and the lanes of its partial last chunk."""
        chunks = -(-length // per_chunk)
        mine = len(range(wp, chunks, WARPS))
        last = chunks - 1
        if last % WARPS == wp and length % per_chunk:
            return mine - 1, (length % per_chunk) * lanes_per_pos
        return mine, 0

    def template(length: int, wp: int) -> WarpTemplate:
        key = (*plan(length, wp), wp == 0)
        if key not in cache:
            cache[key] = _program(key[0], key[1], head_lanes, key[2])
        return cache[key]

    def warp_addrs(b: int, h: int, wp: int) -> list[int]:
        full, tail = plan(lengths[b], wp)
        row = ((b * heads + h) * max_len) * head_dim * HALF
        addrs = [qkv + (b * 3 * hidden + h * head_dim) * HALF]
        for c in range(wp, wp + WARPS * (full + (1 if tail else 0)), WARPS):
            at = row + c * 512
            addrs += [k_cache + at, v_cache + at]
        addrs += [SHMEM_BASE + 4 * wp, SHMEM_BASE + 16 + 4 * wp, SHMEM_BASE + 64 + 128 * wp]
        if wp == 0:
            addrs += [SHMEM_BASE, SHMEM_BASE + 16, SHMEM_BASE + 64]
            addrs.append(out + (b * hidden + h * head_dim) * HALF)
        return addrs

    def blocks() -> Iterator[str]:
        for b in range(rows):
            for h in range(heads):
                yield block_text((h, b, 0), [template(lengths[b], wp).text(wp, warp_addrs(b, h, wp))
                                             for wp in range(WARPS)])

    total = heads * sum(template(lengths[b], wp).instructions for b in range(rows) for wp in range(WARPS))
    return GenKernel(NAME, (heads, rows, 1), (32 * WARPS, 1, 1), 64, 512, total, blocks)
