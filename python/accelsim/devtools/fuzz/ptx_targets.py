"""The PTX fuzz targets:
* ``ptx_parse``: damaged PTX (the example modules, one kernel at a time, and
  small modules for each directive) through the C++ parser, as
  ``accelsim.ptx.Module`` reaches it;
* ``ptx_run``: the same damaged PTX, and whatever parses is launched on a
  Device (pointer arguments get device buffers, scalars small values) and
  emulated with an instruction budget: faults must be PtxErrors;
* ``ptx_emulator``: random valid kernels from a small grammar
  (``ptx_grammar``), emulated and checked bit for bit against a NumPy
  reference interpreter; one in eight goes through the timing model instead
  of plain emulation. Here a PtxError is a finding too: the kernel is valid.
"""
from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import numpy as np

from accelsim.devtools.fuzz.mutate import mutate
from accelsim.errors import AccelsimError

# PTX words a token edit may put in place of another: types, spaces, opcodes
# and their modifiers, directives, special registers, sizes at limits.
PTX_WORDS = [
    ".pred", ".b8", ".b16", ".b32", ".b64", ".u8", ".u32", ".u64", ".s32", ".s64", ".f16", ".f16x2",
    ".bf16", ".f32", ".f64", ".v2", ".v4", ".global", ".shared", ".local", ".const", ".param", ".reg",
    ".align", ".entry", ".func", ".extern", ".visible", ".version", ".target", ".address_size",
    ".callprototype", ".maxntid", ".reqntid", ".loc", ".file", ".pragma", ".ptr", "atom", "red", "ld",
    "st", "mov", "cvt", "cvta", "bar.sync", "bar.arrive", "shfl.sync.bfly.b32", "vote.sync.ballot.b32",
    "trap", "exit", "ret", "bra", "call", "tex.1d.v4.f32.s32", "%tid.x", "%ctaid.y", "%laneid", "%clock64",
    "%r1", "%rd1", "%p1", "%f1", "_", "sm_90a", "sm_70", "sm_20", "1.0", "8.1", "9.9", "4294967296",
    "49153", "65537", "32765", "0f7F800000", "0dFFF0000000000000", "1e999", "-0", "{", "}", ";", "@%p1",
    "@!%p1",
]
_WORD = re.compile(rb"[.%@!]?[A-Za-z_$][\w$.:]*|\d[\w.]*")


def _ptx_edit(rng: random.Random, text: bytes) -> bytes:
    """One PTX-aware edit: a word swapped for a PTX word, or a line duplicated."""
    lines = text.split(b"\n")
    i = rng.randrange(len(lines))
    words = list(_WORD.finditer(lines[i]))
    if words and rng.random() < 0.85:
        m = rng.choice(words)
        lines[i] = lines[i][:m.start()] + rng.choice(PTX_WORDS).encode() + lines[i][m.end():]
    else:
        lines.insert(i, lines[rng.randrange(len(lines))])
    return b"\n".join(lines)


@functools.lru_cache(maxsize=None)
def ptx_seeds() -> tuple[bytes, ...]:
    """Each example module, whole and cut into its header plus one function
    (with the module's variables), and small modules for directives."""
    from accelsim.ptx import EXAMPLES

    out = []
    for path in sorted(Path(EXAMPLES).glob("*.ptx")):
        text = path.read_text()
        starts = [m.start() for m in re.finditer(r"^(?:\.(?:visible|weak|extern)\s+)*\.(?:entry|func)\b", text,
                                                 re.M)]
        if not starts:
            continue
        head = text[:starts[0]] + _module_variables(text[starts[0]:])
        for a, b in zip(starts, starts[1:] + [len(text)]):
            out.append((head + text[a:b]).encode())
        out.append(text.encode())  # whole, for the kernels that call .funcs
    out += [s.encode() for s in _SMALL]
    return tuple(out)


def _module_variables(text: str) -> str:
    """The module-level variable declarations (outside every body) of ``text``."""
    depth, keep = 0, []
    for line in text.splitlines():
        if depth == 0 and re.match(r"\s*(?:\.extern\s+|\.visible\s+)*\.(?:global|const|shared)\b", line):
            keep.append(line + "\n")
        depth += line.count("{") - line.count("}")
    return "".join(keep)


_HEAD = ".version 8.0\n.target sm_75\n.address_size 64\n"
_SMALL = [
    _HEAD + ".global .align 4 .u32 g[4] = {1, 2, 3, 4};\n.const .align 8 .f64 c = 0d3FF0000000000000;\n"
            ".visible .entry k(.param .u64 p, .param .align 8 .b8 s[16])\n{\n\t.reg .b64 %rd<3>;\n"
            "\t.reg .b32 %r<3>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [g+4];\n"
            "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n",
    _HEAD + ".extern .shared .align 16 .b8 dyn[];\n.func (.param .b32 r) f(.param .b32 a)\n{\n"
            "\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [a];\n\tst.param.b32 [r], %r1;\n\tret;\n}\n"
            ".visible .entry k(.param .u64 p) .maxntid 256, 1, 1\n{\n\t.reg .b32 %r<3>;\n"
            "\t.reg .b64 %rd<2>;\n\t{\n\t.param .b32 a0;\n\t.param .b32 r0;\n\tst.param.b32 [a0], 5;\n"
            "\tcall.uni (r0), f, (a0);\n\tld.param.b32 %r1, [r0];\n\t}\n\tld.param.u64 %rd1, [p];\n"
            "\tatom.global.add.u32 %r2, [%rd1], %r1;\n\tbar.sync 0;\n\tret;\n}\n",
]


def make_ptx(rng: random.Random) -> bytes:
    text = rng.choice(ptx_seeds())
    for _ in range(rng.randint(0, 2)):
        text = _ptx_edit(rng, text)
    return mutate(rng, text, max_edits=2) if rng.random() < 0.7 else text


@functools.lru_cache(maxsize=1)
def _tables():
    from accelsim.ptx._tables import tables

    return tables()


def run_ptx_parse(data: bytes, scratch: Path) -> None:
    from accelsim import _core

    m = _core.PtxModule.parse(data.decode("utf-8", "replace"), "fuzz.ptx", _tables())
    m.kernels()
    m.globals()


_DEVICE: list = [None, 0]  # this worker's Device and how many inputs it served


def _device():
    """One Device per worker process, renewed every 1000 inputs so that the
    device memory the inputs allocate (never freed) stays small."""
    from accelsim.ptx import Device

    if _DEVICE[0] is None or _DEVICE[1] >= 1000:
        _DEVICE[0], _DEVICE[1] = Device("QV100", max_warp_insts=20_000, memory_bytes=1 << 34), 0
    _DEVICE[1] += 1
    return _DEVICE[0]


def _arguments(dev, kernel, rng: random.Random) -> list:
    args = []
    for p in kernel.params:
        if p["size"] == 8 and p["type"] in ("u64", "b64", "s64"):
            args.append(dev.zeros(4096, np.uint8))
        elif p["type"].startswith("f"):
            args.append(np.float32(rng.random()) if p["size"] == 4 else np.float64(rng.random()))
        else:
            args.append(bytes(p["size"]) if p["type"] == "b8" and p["size"] > 1 else rng.randrange(64))
    return args


def run_ptx_run(data: bytes, scratch: Path) -> None:
    """Parses, then launches each kernel once (one or two blocks) and emulates it."""
    from accelsim.ptx import Module

    mod = Module(data.decode("utf-8", "replace"), name="fuzz.ptx")
    dev = _device()
    rng = random.Random(len(data))
    for name in mod.kernel_names[:2]:
        k = mod.get_function(name)
        k[rng.randint(1, 2), rng.choice((1, 32, 64))](*_arguments(dev, k, rng), device=dev)
        _emulate(dev)


def _emulate(dev) -> None:
    """Emulates the last queued launch whole, as save_trace does."""
    from accelsim import _core

    launch = dev._pending.pop()
    src = _core.PtxBlocks(dev._tables, launch, dev.arch, dev.regs_per_thread, 1)
    while src.next_block() is not None:
        pass


def make_gen(rng: random.Random):
    from accelsim.devtools.fuzz.ptx_grammar import make_kernel

    kernel = make_kernel(rng)
    return kernel, rng.random() < 0.125  # through the timing model


def run_gen(value, scratch: Path) -> None:
    from accelsim.devtools.fuzz.ptx_grammar import SLOTS, ptx_text, reference, same
    from accelsim.ptx import Module

    kernel, timed = value
    dev = _device()
    try:
        mod = Module(ptx_text(kernel), name="gen.ptx")
        out = dev.zeros(kernel.blocks * kernel.threads * SLOTS, np.uint32)
        a, b, f = kernel.args
        mod.get_function("gen")[kernel.blocks, kernel.threads](out, np.uint32(a), np.uint32(b),
                                                              np.uint32(f).view(np.float32))
        if timed:
            res = dev.synchronize(max_cycles=5_000_000, progress=False)
            if not res.completed:
                raise AssertionError("a valid generated kernel did not finish in 5 M cycles")
            got = out.copy_to_host()
        else:
            _emulate(dev)
            got = np.frombuffer(dev._mem.read(out.ptr, out.nbytes), dtype=np.uint32)
    except AccelsimError as e:
        raise AssertionError(f"a valid generated kernel was refused: {e}") from None
    want = reference(kernel)
    ok = same(got, want)
    if not ok.all():
        k = int(np.argmin(ok))
        thread, slot = divmod(k, SLOTS)
        reg = f"%r{slot}" if slot < 8 else f"%f{slot - 8}"
        raise AssertionError(f"thread {thread}: {reg} = {got[k]:#010x}, the reference says {want[k]:#010x}")
