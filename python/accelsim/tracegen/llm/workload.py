"""A transformer decode workload: ``steps`` decode steps of a ``layers``-layer
fp16 model serving ``batch`` sequences, one kernel launch per operation.

Each step: embedding gather; per layer layer-norm, QKV GEMM, KV-cache append,
attention, output GEMM (+ split-K reduction), residual add, layer-norm, FFN
up GEMM, GELU, FFN down GEMM (+ reduction), residual add; then the final
layer-norm, the LM-head GEMM and arg-max. Everything is drawn from ``seed``:
prompt lengths, the tokens gathered, and which sequences finish and give
their slot to a new prompt (continuous batching), so attention kernels grow
step by step and differ between sequences, and repeated GEMMs read other
weights in every layer.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from accelsim.tracegen.llm import attention as attn
from accelsim.tracegen.llm import matmul, rows
from accelsim.tracegen.llm.common import HALF, GenKernel
from accelsim.tracegen.templates import trace_path, write_blocks

TARGET_CTAS = 160  # split-K until a GEMM has this many CTAs (two per SM of an 80-SM GPU)


@dataclass(frozen=True)
class DecodeSpec:
    """The model, the batch and how long to run."""
    layers: int = 4
    hidden: int = 1024
    heads: int = 16
    ffn: int = 4096
    vocab: int = 32000
    batch: int = 8
    steps: int = 36
    context: int = 512          # mean prompt length (KV positions at the first step)
    max_len: int = 4096         # KV-cache positions per sequence
    replace_probability: float = 0.02  # per step and sequence: it ends, a new prompt starts
    seed: int = 0

    def gemm_shapes(self) -> list[tuple[int, int]]:
        """(N, K) of every GEMM: QKV, output, FFN up, FFN down, LM head."""
        h = self.hidden
        return [(3 * h, h), (h, h), (self.ffn, h), (h, self.ffn), (self.vocab, h)]

    @property
    def kernels_per_step(self) -> int:
        reductions = [self.split(n, k) > 1 for n, k in self.gemm_shapes()]
        return 4 + reductions[-1] + self.layers * (11 + sum(reductions[:-1]))

    @staticmethod
    def split(n: int, k: int) -> int:
        """Split-K factor of an N x K GEMM: doubled while the grid is small
        and K still splits into whole 256-wide iterations."""
        s = 1
        while n // matmul.TILE_N * s < TARGET_CTAS and k % (matmul.TILE_K * s * 2) == 0:
            s *= 2
        return s


class _Arena:
    """cudaMalloc-like placement: large buffers on 2 MiB boundaries."""

    def __init__(self, base: int = 0x00007F0000000000):
        self.next = base

    def take(self, size: int) -> int:
        align = 2 << 20 if size >= 1 << 20 else 512
        at = -(-self.next // align) * align
        self.next = at + size
        return at


@dataclass
class _Layer:
    """One layer's weights and KV cache (device addresses)."""
    qkv: int
    o: int
    up: int
    down: int
    ln1: tuple[int, int]  # gamma, beta
    ln2: tuple[int, int]
    k: int
    v: int


@dataclass
class _Buffers:
    spec: DecodeSpec
    arena: _Arena = field(default_factory=_Arena)

    def __post_init__(self):
        s, a = self.spec, self.arena
        h, f, b = s.hidden, s.ffn, s.batch
        self.embed, self.lm_head = a.take(s.vocab * h * HALF), a.take(s.vocab * h * HALF)
        self.layer = [_Layer(qkv=a.take(3 * h * h * HALF), o=a.take(h * h * HALF), up=a.take(f * h * HALF),
                             down=a.take(h * f * HALF), ln1=(a.take(h * HALF), a.take(h * HALF)),
                             ln2=(a.take(h * HALF), a.take(h * HALF)), k=a.take(b * s.max_len * h * HALF),
                             v=a.take(b * s.max_len * h * HALF))
                      for _ in range(s.layers)]
        self.ln_f = (a.take(h * HALF), a.take(h * HALF))
        self.x, self.xn, self.attn, self.tmp = (a.take(b * h * HALF) for _ in range(4))
        self.qkv, self.ffn = a.take(b * 3 * h * HALF), a.take(b * f * HALF)
        self.logits, self.tokens = a.take(b * s.vocab * HALF), a.take(b * 4)
        # split-K partials: [split][tile][rows x 16] fp32
        self.workspace = a.take(max(s.split(n, k) * n for n, k in s.gemm_shapes()) * b * 4)


def _linear(spec: DecodeSpec, bufs: _Buffers, x: int, w: int, out: int, n: int, k: int) -> Iterator[GenKernel]:
    split = spec.split(n, k)
    if split == 1:
        yield matmul.gemm(spec.batch, k, n, x, w, out)
    else:
        yield matmul.gemm(spec.batch, k, n, x, w, bufs.workspace, split)
        yield matmul.splitk_reduce(spec.batch, n, split, bufs.workspace, out)


def _layer(spec: DecodeSpec, bufs: _Buffers, layer: _Layer, lengths: list[int]) -> Iterator[GenKernel]:
    s, h, b = spec, spec.hidden, spec.batch
    yield rows.layernorm(b, h, bufs.x, layer.ln1[0], layer.ln1[1], bufs.xn)
    yield from _linear(s, bufs, bufs.xn, layer.qkv, bufs.qkv, 3 * h, h)
    yield rows.kv_append(b, h, s.heads, s.max_len, bufs.qkv, layer.k, layer.v, lengths)
    yield attn.attention(b, s.heads, h // s.heads, s.max_len, [n + 1 for n in lengths], bufs.qkv,
                         layer.k, layer.v, bufs.attn)
    yield from _linear(s, bufs, bufs.attn, layer.o, bufs.tmp, h, h)
    yield rows.residual_add(b * h, bufs.x, bufs.tmp, bufs.x)
    yield rows.layernorm(b, h, bufs.x, layer.ln2[0], layer.ln2[1], bufs.xn)
    yield from _linear(s, bufs, bufs.xn, layer.up, bufs.ffn, s.ffn, h)
    yield rows.gelu(b * s.ffn, bufs.ffn, bufs.ffn)
    yield from _linear(s, bufs, bufs.ffn, layer.down, bufs.tmp, h, s.ffn)
    yield rows.residual_add(b * h, bufs.x, bufs.tmp, bufs.x)


def decode_kernels(spec: DecodeSpec) -> Iterator[GenKernel]:
    """Every launch of the workload, in order (built lazily)."""
    if spec.hidden % spec.heads or spec.hidden % 256:
        raise ValueError(f"hidden {spec.hidden}: must be a multiple of 256 and of heads ({spec.heads})")
    rng = random.Random(spec.seed)
    bufs = _Buffers(spec)
    lo, hi = max(1, spec.context // 2), max(2, spec.context * 3 // 2)
    lengths = [rng.randrange(lo, hi) for _ in range(spec.batch)]
    for _step in range(spec.steps):
        tokens = [rng.randrange(spec.vocab) for _ in range(spec.batch)]
        yield rows.embedding(spec.batch, spec.hidden, tokens, bufs.embed, bufs.tokens, bufs.x)
        for layer in bufs.layer:
            yield from _layer(spec, bufs, layer, lengths)
        yield rows.layernorm(spec.batch, spec.hidden, bufs.x, bufs.ln_f[0], bufs.ln_f[1], bufs.xn)
        yield from _linear(spec, bufs, bufs.xn, bufs.lm_head, bufs.logits, spec.vocab, spec.hidden)
        yield rows.argmax(spec.batch, spec.vocab, bufs.logits, bufs.tokens)
        for i in range(spec.batch):  # one more position each; some sequences end, others start
            ended = lengths[i] + 2 >= spec.max_len or rng.random() < spec.replace_probability
            lengths[i] = rng.randrange(lo, hi) if ended else lengths[i] + 1


@dataclass
class GeneratedWorkload:
    """What ``write_decode_workload`` wrote: the kernelslist.g, and per
    kernel its name and exact warp instruction count (from the generator,
    for checking a simulator's or a profiler's counts against)."""
    path: Path
    names: list[str]
    warp_instructions: list[int]

    @property
    def kernels(self) -> int:
        return len(self.names)

    @property
    def total_warp_instructions(self) -> int:
        return sum(self.warp_instructions)


def write_kernels(folder, kernels, compression: str | None = "xz",
                  preamble: Sequence[str] = ()) -> GeneratedWorkload:
    """Writes generated kernels (``GenKernel``) as kernel-N.traceg[.xz] and a
    kernelslist.g listing them after the ``preamble`` command lines."""
    return _write(folder, kernels, compression, preamble, lambda n: True)


def _write(folder, kernels, compression: str | None, preamble: Sequence[str], mine) -> GeneratedWorkload:
    """Lists every kernel; writes the traces of those ``mine(n)`` selects."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lines, names, counts = list(preamble), [], []
    for n, k in enumerate(kernels, start=1):
        path = trace_path(folder, n, compression)
        if mine(n):
            write_blocks(path, k.header(n), k.blocks(), compression)
        lines.append(path.name)
        names.append(k.name)
        counts.append(k.warp_instructions)
    listing = folder / "kernelslist.g"
    listing.write_text("".join(line + "\n" for line in lines))
    return GeneratedWorkload(listing, names, counts)


def _write_share(folder: str, spec: DecodeSpec, compression: str | None, share: int, jobs: int) -> None:
    """One process's part of a parallel write: every ``jobs``-th kernel."""
    for n, k in enumerate(decode_kernels(spec), start=1):
        if n % jobs == share:
            write_blocks(trace_path(Path(folder), n, compression), k.header(n), k.blocks(), compression)


def write_decode_workload(folder, spec: DecodeSpec | None = None, *,
                          compression: str | None = "xz", jobs: int = 1) -> GeneratedWorkload:
    """Writes the decode workload of ``spec`` (default: ``DecodeSpec()``,
    2,016 kernels, about 1.6 x 10^8 warp instructions) into ``folder``:
    kernel-N.traceg.xz files (``compression`` None: plain text, "gz" also
    works) and kernelslist.g, which starts with the copy of the first tokens.
    ``jobs`` > 1 writes the traces in that many processes (the same files:
    every kernel is built from ``spec`` alone)."""
    spec = spec or DecodeSpec()
    bufs_tokens = _Buffers(spec).tokens
    preamble = [f"MemcpyHtoD,0x{bufs_tokens:016x},{4 * spec.batch}"]
    if jobs <= 1:
        return write_kernels(folder, decode_kernels(spec), compression, preamble)
    from concurrent.futures import ProcessPoolExecutor

    Path(folder).mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(jobs) as pool:
        for f in [pool.submit(_write_share, str(folder), spec, compression, i, jobs) for i in range(jobs)]:
            f.result()
    return _write(folder, decode_kernels(spec), compression, preamble, lambda n: False)
