"""Random valid PTX kernels from a small grammar, and a reference interpreter
(NumPy, all threads of the grid at once) that says what each must compute.

A program is a list of statements over eight u32 registers ``%r0..%r7``, four
f32 registers ``%f0..%f3`` and two predicates:
* ``("op", name, dst, srcs)``: integer and float arithmetic with exactly
  defined results (wrap-around, shifts that clamp, IEEE round-to-nearest);
* ``("if", cmp, a, b, body)``: a forward branch around ``body`` taken where
  the comparison fails, so lanes diverge and must reconverge;
* ``("loop", trip_reg, body)``: ``body`` runs ``r & 7`` times per thread
  (divergent trip counts);
* ``("shfl", dst, src, mask)``: a butterfly shuffle (uniform code only);
* ``("shared", dst, src)``: every thread stores ``src`` to shared memory, a
  barrier, then reads its right neighbour's value (uniform code only).
Every thread then stores its registers; the emulator's results must equal
the reference bit for bit (NaN compared as NaN). Everything is a pure
function of the RNG, so a failing program is reproduced from its seed."""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

NR, NF = 8, 4                 # u32 and f32 registers
SLOTS = NR + NF               # stored per thread
_M32 = np.uint64(0xFFFFFFFF)

INT_BINARY = ("add.u32", "sub.u32", "mul.lo.u32", "mul.hi.u32", "and.b32", "or.b32", "xor.b32",
              "shl.b32", "shr.u32", "shr.s32", "min.u32", "max.u32", "min.s32", "max.s32", "div.u32",
              "rem.u32", "div.s32", "rem.s32")
INT_UNARY = ("not.b32", "popc.b32", "clz.b32", "brev.b32", "neg.s32", "abs.s32")
FLOAT_BINARY = ("add.rn.f32", "sub.rn.f32", "mul.rn.f32")
CMPS = ("lt.u32", "ge.u32", "eq.u32", "ne.u32", "lt.s32", "gt.s32")


@dataclass(frozen=True)
class Kernel:
    """A generated kernel: its statements, launch shape and arguments."""
    body: tuple
    blocks: int
    threads: int
    args: tuple  # (a, b): u32 values in %r1, %r2; f: f32 bits in %f1

    def __repr__(self) -> str:  # what a finding shows
        return f"Kernel(blocks={self.blocks}, threads={self.threads}, args={self.args}, body={self.body!r})"


# ---- generation --------------------------------------------------------------------

def _int_op(rng: random.Random):
    if rng.random() < 0.2:
        return ("op", rng.choice(INT_UNARY), rng.randrange(NR), (rng.randrange(NR),))
    if rng.random() < 0.1:
        return ("op", "mad.lo.u32", rng.randrange(NR), tuple(rng.randrange(NR) for _ in range(3)))
    return ("op", rng.choice(INT_BINARY), rng.randrange(NR), (rng.randrange(NR), rng.randrange(NR)))


def _float_op(rng: random.Random):
    pick = rng.random()
    if pick < 0.2:
        return ("op", "cvt.rn.f32.u32", rng.randrange(NF), (rng.randrange(NR),))
    if pick < 0.35:
        return ("op", "cvt.rzi.u32.f32", rng.randrange(NR), (rng.randrange(NF),))
    return ("op", rng.choice(FLOAT_BINARY), rng.randrange(NF), (rng.randrange(NF), rng.randrange(NF)))


def _block(rng: random.Random, depth: int, uniform: bool, size: int) -> tuple:
    out: list[tuple] = []
    for _ in range(size):
        pick = rng.random()
        if pick < 0.12 and depth < 2:
            out.append(("if", rng.choice(CMPS), rng.randrange(NR), rng.randrange(NR),
                        _block(rng, depth + 1, False, rng.randint(1, 4))))
        elif pick < 0.2 and depth < 2:
            out.append(("loop", rng.randrange(NR), _block(rng, depth + 1, False, rng.randint(1, 3))))
        elif pick < 0.27 and uniform:
            out.append(("shfl", rng.randrange(NR), rng.randrange(NR), rng.choice((1, 2, 4, 8, 16, 31))))
        elif pick < 0.32 and uniform:
            out.append(("shared", rng.randrange(NR), rng.randrange(NR)))
        elif pick < 0.55:
            out.append(_float_op(rng))
        else:
            out.append(_int_op(rng))
    return tuple(out)


def make_kernel(rng: random.Random) -> Kernel:
    f = float(np.float32(rng.choice([0.5, -3.25, 1e-3, 7.0, 1e30, -0.0, 123456.78])))
    args = (rng.getrandbits(32), rng.choice([0, 1, 3, 31, 32, 0x80000000, rng.getrandbits(32)]),
            int(np.float32(f).view(np.uint32)))
    return Kernel(_block(rng, 0, True, rng.randint(3, 14)), rng.randint(1, 3), 32 * rng.randint(1, 4), args)


# ---- PTX text ------------------------------------------------------------------------

class _Writer:
    def __init__(self):
        self.lines: list[str] = []
        self.labels = 0
        self.counters = 0

    def emit(self, text: str) -> None:
        self.lines.append("\t" + text)

    def label(self) -> str:
        self.labels += 1
        return f"$L{self.labels}"

    def op(self, name: str, dst: int, srcs: tuple) -> None:
        if name.startswith(("div", "rem")):  # a divisor that is never 0 (but may be -1)
            self.emit(f"or.b32 %t0, %r{srcs[1]}, 1;")
            self.emit(f"{name} %r{dst}, %r{srcs[0]}, %t0;")
            return
        reg = "f" if name.split(".")[-1] == "f32" and not name.startswith("cvt") else "r"
        if name == "cvt.rn.f32.u32":
            self.emit(f"{name} %f{dst}, %r{srcs[0]};")
        elif name == "cvt.rzi.u32.f32":
            self.emit(f"{name} %r{dst}, %f{srcs[0]};")
        elif name.startswith(("shl", "shr")):  # shift counts come from a register (clamped by the ISA)
            self.emit(f"{name} %r{dst}, %r{srcs[0]}, %r{srcs[1]};")
        else:
            self.emit(f"{name} %{reg}{dst}, " + ", ".join(f"%{reg}{s}" for s in srcs) + ";")

    def block(self, body: tuple) -> None:
        for st in body:
            kind = st[0]
            if kind == "op":
                self.op(st[1], st[2], st[3])
            elif kind == "if":
                end = self.label()
                self.emit(f"setp.{st[1]} %p1, %r{st[2]}, %r{st[3]};")
                self.emit(f"@!%p1 bra {end};")
                self.block(st[4])
                self.lines.append(f"{end}:")
            elif kind == "loop":
                self.counters += 1
                c, n = f"%c{self.counters}", f"%n{self.counters}"
                head, end = self.label(), self.label()
                self.emit(f"and.b32 {n}, %r{st[1]}, 7;")
                self.emit(f"mov.u32 {c}, 0;")
                self.lines.append(f"{head}:")
                self.emit(f"setp.ge.u32 %p0, {c}, {n};")
                self.emit(f"@%p0 bra {end};")
                self.block(st[2])
                self.emit(f"add.u32 {c}, {c}, 1;")
                self.emit(f"bra.uni {head};")
                self.lines.append(f"{end}:")
            elif kind == "shfl":
                self.emit(f"shfl.sync.bfly.b32 %r{st[1]}, %r{st[2]}, {st[3]}, 31, -1;")
            elif kind == "shared":
                self.emit(f"st.shared.u32 [%sa], %r{st[2]};")
                self.emit("bar.sync 0;")
                self.emit(f"ld.shared.u32 %r{st[1]}, [%sb];")
                self.emit("bar.sync 0;")


def _counters(body: tuple) -> int:
    return sum(1 + _counters(st[2]) if st[0] == "loop" else _counters(st[4]) if st[0] == "if" else 0
               for st in body)


def ptx_text(k: Kernel) -> str:
    w = _Writer()
    w.block(k.body)
    loops = _counters(k.body)
    head = [
        ".version 8.0", ".target sm_75", ".address_size 64", "",
        ".visible .entry gen(.param .u64 out, .param .u32 a, .param .u32 b, .param .f32 f)", "{",
        f"\t.reg .b32 %r<{NR}>;", f"\t.reg .f32 %f<{NF}>;", "\t.reg .pred %p<2>;", "\t.reg .b32 %t<1>;",
        "\t.reg .b64 %rd<4>;", "\t.reg .u32 %ti, %nt, %ct, %nx, %gi;", "\t.reg .u64 %sa, %sb;",
        f"\t.shared .align 4 .b8 sm[{4 * k.threads}];",
    ]
    head += [f"\t.reg .u32 %c{i}, %n{i};" for i in range(1, loops + 1)]
    head += [
        "\tmov.u32 %ti, %tid.x;", "\tmov.u32 %nt, %ntid.x;", "\tmov.u32 %ct, %ctaid.x;",
        "\tmad.lo.u32 %gi, %ct, %nt, %ti;", "\tmov.u32 %r0, %gi;", "\tld.param.u32 %r1, [a];",
        "\tld.param.u32 %r2, [b];",
        "\tmov.u32 %r3, %laneid;", "\tmul.lo.u32 %r4, %r0, -1640531535;", "\txor.b32 %r5, %r4, %r1;",
        "\tshl.b32 %r6, %r0, 7;", "\tadd.u32 %r7, %r2, 12345;",
        "\tcvt.rn.f32.u32 %f0, %r0;", "\tld.param.f32 %f1, [f];", "\tmul.rn.f32 %f2, %f0, %f1;",
        "\tmov.f32 %f3, 0f3F000000;",
        # shared-memory slots of this thread and of its right neighbour
        "\tmov.u64 %sa, sm;", "\tmul.wide.u32 %rd1, %ti, 4;", "\tadd.u64 %sa, %sa, %rd1;",
        "\tadd.u32 %nx, %ti, 1;", "\trem.u32 %nx, %nx, %nt;", "\tmov.u64 %sb, sm;",
        "\tmul.wide.u32 %rd1, %nx, 4;", "\tadd.u64 %sb, %sb, %rd1;",
    ]
    tail = ["\tld.param.u64 %rd1, [out];", "\tcvta.to.global.u64 %rd1, %rd1;",
            f"\tmul.wide.u32 %rd2, %gi, {4 * SLOTS};", "\tadd.u64 %rd3, %rd1, %rd2;"]
    tail += [f"\tst.global.u32 [%rd3+{4 * i}], %r{i};" for i in range(NR)]
    tail += [f"\tst.global.f32 [%rd3+{4 * (NR + i)}], %f{i};" for i in range(NF)]
    return "\n".join(head + w.lines + tail + ["\tret;", "}", ""])


# ---- the reference -------------------------------------------------------------------

def _u(x) -> np.ndarray:
    return np.asarray(x, dtype=np.uint64) & _M32


def _s(x: np.ndarray) -> np.ndarray:
    return x.astype(np.uint32).view(np.int32).astype(np.int64)


def _int(name: str, v: list) -> np.ndarray:
    a = v[0]
    b = v[1] if len(v) > 1 else v[0]  # (unary operations use a only)
    if name == "add.u32":
        return _u(a + b)
    if name == "sub.u32":
        return _u(a - b + np.uint64(1 << 32))
    if name == "mul.lo.u32":
        return _u(a * b)
    if name == "mul.hi.u32":
        return (a * b) >> np.uint64(32)
    if name == "mad.lo.u32":
        return _u(a * b + v[2])
    logic = {"and.b32": np.bitwise_and, "or.b32": np.bitwise_or, "xor.b32": np.bitwise_xor}
    if name in logic:
        return logic[name](a, b)
    if name == "shl.b32":
        return np.where(b >= 32, 0, _u(a << np.minimum(b, 32))).astype(np.uint64)
    if name == "shr.u32":
        return np.where(b >= 32, 0, a >> np.minimum(b, 32)).astype(np.uint64)
    if name == "shr.s32":
        return _u(_s(a) >> np.minimum(b, 31).astype(np.int64))
    if name in ("min.u32", "max.u32"):
        return (np.minimum if name == "min.u32" else np.maximum)(a, b)
    if name in ("min.s32", "max.s32"):
        return _u((np.minimum if name == "min.s32" else np.maximum)(_s(a), _s(b)))
    if name == "div.u32":
        return a // (b | np.uint64(1))
    if name == "rem.u32":
        return a % (b | np.uint64(1))
    if name in ("div.s32", "rem.s32"):  # truncating; INT_MIN / -1 wraps to INT_MIN, its remainder is 0
        x, y = _s(a), _s(b | np.uint64(1))
        q = np.abs(x) // np.abs(y) * np.sign(x) * np.sign(y)
        return _u(q if name == "div.s32" else x - q * y)
    return _unary(name, a)


def _unary(name: str, a: np.ndarray) -> np.ndarray:
    if name == "not.b32":
        return a ^ _M32
    if name == "popc.b32":
        return np.array([bin(int(x)).count("1") for x in a], dtype=np.uint64)
    if name == "clz.b32":
        return np.array([32 - int(x).bit_length() for x in a], dtype=np.uint64)
    if name == "brev.b32":
        return np.array([int(f"{int(x):032b}"[::-1], 2) for x in a], dtype=np.uint64)
    if name == "neg.s32":
        return _u(-_s(a))
    if name == "abs.s32":
        return _u(np.abs(_s(a)))
    raise ValueError(name)


def _float(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return {"add.rn.f32": np.add, "sub.rn.f32": np.subtract, "mul.rn.f32": np.multiply}[name](x, y)


def _to_u32(x: np.ndarray) -> np.ndarray:
    """cvt.rzi.u32.f32: toward zero, saturating, NaN -> 0."""
    with np.errstate(all="ignore"):
        t = np.trunc(x.astype(np.float64))
        t = np.where(np.isnan(t), 0, np.clip(t, 0, 4294967295.0))
    return t.astype(np.uint64)


_CMP = {"lt.u32": lambda a, b: a < b, "ge.u32": lambda a, b: a >= b, "eq.u32": lambda a, b: a == b,
        "ne.u32": lambda a, b: a != b, "lt.s32": lambda a, b: _s(a) < _s(b),
        "gt.s32": lambda a, b: _s(a) > _s(b)}


class _State:
    def __init__(self, k: Kernel):
        n = k.blocks * k.threads
        gid = np.arange(n, dtype=np.uint64)
        self.k, self.tid = k, gid % np.uint64(k.threads)
        a, b, fbits = k.args
        r = [gid, np.full(n, a, np.uint64), np.full(n, b, np.uint64), gid % np.uint64(32),
             _u(gid * np.uint64(2654435761)), None, _u(gid << np.uint64(7)), _u(np.full(n, b + 12345, np.uint64))]
        r[5] = r[4] ^ r[1]
        self.r = r
        f0 = gid.astype(np.uint32).astype(np.float32)
        f1 = np.full(n, np.uint32(fbits).view(np.float32), np.float32)
        with np.errstate(all="ignore"):
            self.f = [f0, f1, f0 * f1, np.full(n, 0.5, np.float32)]

    def op(self, st, active: np.ndarray) -> None:
        _, name, dst, srcs = st
        if name == "cvt.rn.f32.u32":
            self.f[dst] = np.where(active, self.r[srcs[0]].astype(np.uint32).astype(np.float32), self.f[dst])
        elif name == "cvt.rzi.u32.f32":
            self.r[dst] = np.where(active, _to_u32(self.f[srcs[0]]), self.r[dst])
        elif name in FLOAT_BINARY:
            self.f[dst] = np.where(active, _float(name, self.f[srcs[0]], self.f[srcs[1]]), self.f[dst])
        else:
            self.r[dst] = np.where(active, _int(name, [self.r[s] for s in srcs]), self.r[dst])

    def run(self, body: tuple, active: np.ndarray) -> None:
        for st in body:
            if st[0] == "op":
                self.op(st, active)
            elif st[0] == "if":
                self.run(st[4], active & _CMP[st[1]](self.r[st[2]], self.r[st[3]]))
            elif st[0] == "loop":
                trips = self.r[st[1]] & np.uint64(7)
                for i in range(7):
                    self.run(st[2], active & (np.uint64(i) < trips))
            elif st[0] == "shfl":
                lanes = np.arange(len(active)) // 32 * 32 + ((np.arange(len(active)) % 32) ^ st[3])
                self.r[st[1]] = self.r[st[2]][lanes]
            else:  # shared: read the right neighbour within the block
                t = np.uint64(self.k.threads)
                nxt = (np.arange(len(active), dtype=np.uint64) // t) * t + (self.tid + np.uint64(1)) % t
                self.r[st[1]] = self.r[st[2]][nxt.astype(np.int64)]


def reference(k: Kernel) -> np.ndarray:
    """What the kernel stores: per thread, %r0..%r7 then the bits of %f0..%f3."""
    s = _State(k)
    s.run(k.body, np.ones(k.blocks * k.threads, dtype=bool))
    cols = [x.astype(np.uint32) for x in s.r] + [x.astype(np.float32).view(np.uint32) for x in s.f]
    return np.stack(cols, axis=1).reshape(-1)


def same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Equal bits, NaN against NaN in the float slots."""
    eq = got == want
    fg = got.reshape(-1, SLOTS)[:, NR:].view(np.float32)
    fw = want.reshape(-1, SLOTS)[:, NR:].view(np.float32)
    eq.reshape(-1, SLOTS)[:, NR:] |= np.isnan(fg) & np.isnan(fw)
    return eq
