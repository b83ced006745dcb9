"""Element-wise and one-CTA-per-row kernels of a decode step: residual
add, GELU, layer-norm, embedding gather, KV-cache append and arg-max."""
from __future__ import annotations

from typing import Iterator

from accelsim.tracegen.llm.common import (HALF, SHMEM_BASE, GenKernel, index_prologue, lanes, ldg128,
                                          lds, stg128, sts, warp_reduce)
from accelsim.tracegen.templates import Op, Program, WarpTemplate, block_text

# --- element-wise kernels -------------------------------------------------

def _elementwise_program(inputs: int, math: list[Op], live: int) -> WarpTemplate:
    """``live`` threads of the warp have an element; the others (all of them
    when 0) leave after the bounds check."""
    p = Program().code(index_prologue(inputs) + [Op("ISETP.GE.AND", None, (2,))])
    if not live:
        return p.code([Op("EXIT")]).template()
    mask = lanes(live)
    p.code([ldg128(8 + 4 * i, 4 + 2 * i, mask) for i in range(inputs)])
    return p.code(math + [stg128(4, 24, mask), Op("EXIT", mask=mask)]).template()


def elementwise(name: str, elements: int, srcs: list[int], dst: int, math: list[Op],
                block: int = 256, nregs: int = 24) -> GenKernel:
    """One thread per 8 fp16 elements (one 16-byte access per operand)."""
    threads = -(-elements // 8)
    grid = -(-threads // block)
    warps = block // 32
    cache: dict[int, WarpTemplate] = {}

    def template(live: int) -> WarpTemplate:
        if live not in cache:
            cache[live] = _elementwise_program(len(srcs), math, live)
        return cache[live]

    plan = [[max(0, min(32, threads - (c * block + 32 * w))) for w in range(warps)] for c in range(grid)]

    def blocks() -> Iterator[str]:
        for c, ws in enumerate(plan):
            texts = []
            for w, live in enumerate(ws):
                off = 16 * (c * block + 32 * w)
                addrs = [s + off for s in srcs] + [dst + off] if live else []
                texts.append(template(live).text(w, addrs))
            yield block_text((c, 0, 0), texts)

    total = sum(template(live).instructions for ws in plan for live in ws)
    return GenKernel(name, (grid, 1, 1), (block, 1, 1), nregs, 0, total, blocks)


def residual_add(elements: int, a: int, b: int, out: int) -> GenKernel:
    math = [Op("HADD2", 24 + i, (8 + i, 12 + i)) for i in range(4)]
    return elementwise("_Z15residual_add_f16P6__halfPKS_S2_i", elements, [a, b], out, math)


def gelu(elements: int, x: int, out: int) -> GenKernel:
    math = [Op("HADD2.F32", 12 + i, (8 + i // 2,)) for i in range(8)]
    for i in range(8):  # x * sigmoid(1.702 x): mul, exp2, add, reciprocal, mul
        r = 12 + i
        math += [Op("FMUL", 20, (r,)), Op("MUFU.EX2", 21, (20,)), Op("FADD", 21, (21,)),
                 Op("MUFU.RCP", 22, (21,)), Op("FMUL", r, (r, 22))]
    math += [Op("F2F.F16.F32", 12 + i, (12 + i,)) for i in range(8)]
    math += [Op("PRMT", 24 + i, (12 + 2 * i, 13 + 2 * i)) for i in range(4)]
    return elementwise("_Z15gelu_fast_f16P6__halfPKS_i", elements, [x], out, math, nregs=32)


# --- row kernels: layer-norm, embedding, KV-cache append, arg-max ----------

def _row_threads(hidden: int) -> int:
    return min(1024, max(32, hidden // 8))


def _norm_pass(warps: int, first: list[Op]) -> list[Op]:
    """A row statistic: per-thread terms, warp reduction, then the warps'
    partial sums through shared memory."""
    ops = first + [Op("FADD", 30, (30, 12 + i)) for i in range(7)] + warp_reduce(30, 31)
    if warps > 1:
        ops += [sts(32, 30, mask=1), Op("BAR.SYNC"), lds(128, 32, broadcast=True)]
        ops += [Op("FADD", 30, (30, 32 + i % 4)) for i in range(min(3, warps - 1))]
    return ops


def _layernorm_program(warps: int) -> WarpTemplate:
    unpack = [Op("HADD2.F32", 12 + i, (8 + i // 2,)) for i in range(8)]
    centre = [Op("FADD", 12 + i, (12 + i, 30)) for i in range(8)]
    square = [Op("FFMA", 20 + i, (12 + i, 12 + i)) for i in range(8)]
    p = Program().code(index_prologue(2) + [ldg128(8, 4)] + unpack)
    p.code(_norm_pass(warps, []) + [Op("FMUL", 30, (30,))] + centre)
    p.code(_norm_pass(warps, square) + [Op("FFMA", 31, (30,)), Op("MUFU.RSQ", 31, (31,))])
    p.code([ldg128(36, 6), ldg128(40, 8)])  # gamma, beta
    p.code([Op("FMUL", 12 + i, (12 + i, 31)) for i in range(8)])
    p.code([Op("FFMA", 12 + i, (12 + i, 36 + i // 2, 40 + i // 2)) for i in range(8)])
    p.code([Op("F2F.F16.F32", 12 + i, (12 + i,)) for i in range(8)])
    p.code([Op("PRMT", 24 + i, (12 + 2 * i, 13 + 2 * i)) for i in range(4)])
    return p.code([stg128(4, 24), Op("EXIT")]).template()


def layernorm(rows: int, hidden: int, x: int, gamma: int, beta: int, out: int) -> GenKernel:
    """One CTA per row; each thread normalises 8 elements (mean, variance,
    scale and shift). gamma/beta are read by every row: cache reuse."""
    threads = _row_threads(hidden)
    warps = threads // 32
    t = _layernorm_program(warps)

    def blocks() -> Iterator[str]:
        for r in range(rows):
            texts = []
            for w in range(warps):
                row, col = r * hidden * HALF, 512 * w
                texts.append(t.text(w, [x + row + col, SHMEM_BASE + 4 * w, SHMEM_BASE,
                                        SHMEM_BASE + 64 + 4 * w, SHMEM_BASE + 64, gamma + col,
                                        beta + col, out + row + col]
                                    if warps > 1 else [x + row + col, gamma + col, beta + col,
                                                       out + row + col]))
            yield block_text((r, 0, 0), texts)

    return GenKernel("_Z16layernorm_kernelPK6__halfS1_S1_PS_if", (rows, 1, 1), (threads, 1, 1),
                     40, 256, t.instructions * warps * rows, blocks)


def embedding(rows: int, hidden: int, tokens: list[int], table: int, token_buf: int,
              out: int) -> GenKernel:
    """Gathers one table row per sequence (the token drawn this step)."""
    threads = _row_threads(hidden)
    warps = threads // 32
    t = Program().code([Op("S2R", 0), Op("S2R", 1), Op("LDG.E.SYS", 2, (4,), 1, deltas=()),
                        Op("IMAD.WIDE", 4, (2, 0)), Op("IMAD.WIDE", 6, (1, 0)), ldg128(8, 4),
                        stg128(6, 8), Op("EXIT")]).template()

    def blocks() -> Iterator[str]:
        for r in range(rows):
            src, dst = table + tokens[r] * hidden * HALF, out + r * hidden * HALF
            yield block_text((r, 0, 0), [t.text(w, [token_buf + 4 * r, src + 512 * w, dst + 512 * w])
                                         for w in range(warps)])

    return GenKernel("_Z16embedding_kernelPKiPK6__halfPS1_i", (rows, 1, 1), (threads, 1, 1), 16, 0,
                     t.instructions * warps * rows, blocks)


def kv_append(rows: int, hidden: int, heads: int, max_len: int, qkv: int, k_cache: int,
              v_cache: int, positions: list[int]) -> GenKernel:
    """Copies each sequence's new key and value into the caches at its
    current length ([sequence][head][position][head_dim] layout)."""
    threads = _row_threads(hidden)
    warps = threads // 32
    head_dim = hidden // heads
    lanes_per_head = head_dim // 8
    jump = max_len * head_dim * HALF - 16 * (lanes_per_head - 1)
    deltas = tuple(16 if (i + 1) % lanes_per_head else jump for i in range(31))
    t = Program().code(index_prologue(1) + [ldg128(8, 4), ldg128(12, 6),
                                            Op("STG.E.128.SYS", None, (4, 8), deltas=deltas),
                                            Op("STG.E.128.SYS", None, (6, 12), deltas=deltas),
                                            Op("EXIT")]).template()
    heads_per_warp = 32 // lanes_per_head

    def blocks() -> Iterator[str]:
        for r in range(rows):
            src = qkv + r * 3 * hidden * HALF
            texts = []
            for w in range(warps):
                head = w * heads_per_warp
                cell = ((r * heads + head) * max_len + positions[r]) * head_dim * HALF
                texts.append(t.text(w, [src + hidden * HALF + 512 * w, src + 2 * hidden * HALF + 512 * w,
                                        k_cache + cell, v_cache + cell]))
            yield block_text((r, 0, 0), texts)

    return GenKernel("_Z24reshape_and_cache_kernelPK6__halfS1_PS_S2_PKii", (rows, 1, 1), (threads, 1, 1),
                     24, 0, t.instructions * warps * rows, blocks)


def _argmax_program(iterations: int, tail: int) -> WarpTemplate:
    body = [ldg128(8, 4)] + [Op("HADD2.F32", 12 + i, (8 + i // 2,)) for i in range(8)]
    body += [Op("FMNMX", 20, (20, 12 + i)) for i in range(8)]
    body += [Op("FSETP.GT.AND", None, (20, 21)), Op("SEL", 22, (22, 2)), Op("IADD3", 4, (4,)),
             Op("ISETP.GE.AND", None, (4,)), Op("BRA")]
    p = Program().code(index_prologue() + [Op("MOV", 20), Op("MOV", 22)]).loop(body, iterations)
    if tail:
        p.code([ldg128(8, 4, lanes(tail))] + [Op("FMNMX", 20, (20, 9), lanes(tail))])
    p.code(warp_reduce(20, 21, "FMNMX") + [Op("SEL", 22, (22, 23)), sts(64, 20, mask=1),
                                            Op("BAR.SYNC"), lds(64, 24), Op("ISETP.NE.AND", None, (0,))])
    return p.code(warp_reduce(24, 25, "FMNMX") + [Op("STG.E.SYS", None, (6, 22), 1, deltas=()),
                                                   Op("EXIT")]).template()


def argmax(rows: int, vocab: int, logits: int, out_tokens: int) -> GenKernel:
    """Greedy sampling: one 1,024-thread CTA per sequence scans its logits
    (16-byte loads, grid-stride), then reduces through shuffles and shared memory."""
    threads, warps = 1024, 32
    per_pass = threads * 8
    full, rest = divmod(vocab, per_pass)
    plans = []
    for w in range(warps):
        left = rest - 256 * w  # elements of the partial pass for this warp
        plans.append((w, max(0, min(32, -(-left // 8)))))
    cache = {tail: _argmax_program(full, tail) for _, tail in plans}

    def blocks() -> Iterator[str]:
        for r in range(rows):
            row = logits + r * vocab * HALF
            texts = []
            for w, tail in plans:
                addrs = [row + (i * per_pass + 256 * w) * HALF for i in range(full)]
                if tail:
                    addrs.append(row + (full * per_pass + 256 * w) * HALF)
                addrs += [SHMEM_BASE + 8 * w, SHMEM_BASE, out_tokens + 4 * r]
                texts.append(cache[tail].text(w, addrs))
            yield block_text((r, 0, 0), texts)

    total = rows * sum(cache[tail].instructions for _, tail in plans)
    return GenKernel("_Z13argmax_kernelPK6__halfPii", (rows, 1, 1), (threads, 1, 1), 32, 512, total, blocks)
