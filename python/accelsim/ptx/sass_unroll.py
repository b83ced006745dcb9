"""How often each SASS block of a loop ptxas unrolled again runs (docs/ptx.md,
"Basic blocks"): ptxas turns a PTX loop body of unknown trip count into a
main loop of k copies, a straight chunk of k/2 and a one-copy remainder loop,
each behind a guard on one down-counting register. Given the trip count n of
each entry into the PTX loop (the emulator's), ``region_counts`` runs those
guards (their compare immediates read from the SASS) on the counter and
counts every block of the loop: with ptxas's guards the main body runs
floor(n/k) times, the chunk once when n mod k >= k/2, the remainder the rest.

Only the instructions that decide the path are evaluated: the counter's
decrements, ISETP of the counter against an immediate, PLOP3 of constant
predicates and the guarded branches. A loop whose guards use anything else
is reported as not read (``Unreadable``), not guessed."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from accelsim.ptx.sass_blocks import SassBlock

__all__ = ["LoopCounter", "Unreadable", "loop_counter", "walk", "region_counts"]

_IMM = r"(-?0x[0-9a-fA-F]+|-?\d+|RZ)"
_ADD = re.compile(rf"^(R\d+), \1, {_IMM}, RZ$")
_SETP = re.compile(rf"^(P\d), PT, (R\d+), {_IMM}, (!?P\d|!?PT)$")
_PLOP = re.compile(r"^(P\d), PT, PT, PT, PT, (0x[0-9a-fA-F]+), 0x0$")
_TARGET = re.compile(r"`\(([^)]+)\)")
_CMP = {"GT": int.__gt__, "GE": int.__ge__, "LT": int.__lt__, "LE": int.__le__, "NE": int.__ne__,
        "EQ": int.__eq__}


class Unreadable(Exception):
    """The loop's guards use something ``walk`` does not evaluate."""


@dataclass(frozen=True)
class LoopCounter:
    """The down-counting register of an unrolled loop: ``value = last +
    remaining * step`` (``remaining``: PTX iterations still to run)."""
    register: str
    step: int
    last: int


def _imm(text: str) -> int:
    return 0 if text == "RZ" else int(text, 0)


def loop_counter(remainder: SassBlock) -> LoopCounter:
    """The counter of the one-copy remainder loop: the register its back edge
    compares (``ISETP.NE`` against the value it ends at), decremented by one
    PTX iteration's step in the block."""
    setp = [i for i in remainder.insts if i.opcode.startswith("ISETP.NE") and _SETP.match(i.operands)]
    if not setp:
        raise Unreadable(f"{remainder.name}: no ISETP.NE of a register against an immediate closes the loop")
    m = _SETP.match(setp[-1].operands)
    assert m is not None
    reg, last = m.group(2), _imm(m.group(3))
    steps = [-_imm(a.group(2)) for i in remainder.insts if i.opcode == "IADD3"
             if (a := _ADD.match(i.operands)) and a.group(1) == reg]
    if len(steps) != 1 or steps[0] <= 0:
        raise Unreadable(f"{remainder.name}: {reg} is not decremented once by a constant")
    return LoopCounter(reg, steps[0], last)


def _setp(opcode: str, operands: str, ctr: LoopCounter, value: int, preds: dict[str, bool]) -> tuple[str, bool]:
    m = _SETP.match(operands)
    parts = opcode.split(".")
    if m is None or m.group(2) != ctr.register or parts[1] not in _CMP or parts[-1] not in ("AND", "OR"):
        raise Unreadable(f"ISETP not of the counter against an immediate: {opcode} {operands}")
    got = _CMP[parts[1]](value, _imm(m.group(3)))
    other = m.group(4)
    q = True if other.lstrip("!") == "PT" else preds.get(other.lstrip("!"))
    if q is None:
        raise Unreadable(f"ISETP combines an unknown predicate: {opcode} {operands}")
    q = q != other.startswith("!")
    return m.group(1), (got and q) if parts[-1] == "AND" else (got or q)


def _clobber(b: SassBlock, inst, ctr: LoopCounter, preds: dict[str, bool]) -> None:
    """Another instruction: writing the counter is unreadable; a predicate it
    may write (its first two operands: destination, carry out) is unknown."""
    ops = [o.strip() for o in inst.operands.split(",")[:2]]
    if ops and ops[0] == ctr.register:
        raise Unreadable(f"{b.name}: {inst.opcode} writes {ctr.register}, the loop's counter")
    for o in ops:
        preds.pop(o, None)


def _step(b: SassBlock, ctr: LoopCounter, remaining: int, preds: dict[str, bool]) -> tuple[int, str | None]:
    """Runs block ``b``: (remaining after it, the label its branch takes or None to fall through)."""
    taken: str | None = None
    for i in b.insts:
        op = i.opcode.split(".")[0]
        if op == "IADD3" and (a := _ADD.match(i.operands)) and a.group(1) == ctr.register:
            delta = -_imm(a.group(2))
            if delta % ctr.step:
                raise Unreadable(f"{b.name}: {ctr.register} moves by {delta}, not a multiple of {ctr.step}")
            remaining -= delta // ctr.step
        elif op == "ISETP":
            p, v = _setp(i.opcode, i.operands, ctr, ctr.last + remaining * ctr.step, preds)
            preds[p] = v
        elif op == "PLOP3" and (m := _PLOP.match(i.operands)):
            preds[m.group(1)] = bool(int(m.group(2), 16) & 0x80)  # every input PT: the LUT's last entry
        elif op == "BRA":
            t = _TARGET.search(i.operands)
            p = i.pred.lstrip("@")
            if t is None or (p and p.lstrip("!") not in preds):
                raise Unreadable(f"{b.name}: branch on an unknown predicate: {i.pred} BRA {i.operands}")
            if not p or preds[p.lstrip("!")] != p.startswith("!"):
                taken = t.group(1)
        else:
            _clobber(b, i, ctr, preds)
    return remaining, taken


def walk(region: list[SassBlock], ctr: LoopCounter, trips: int, entry: str | None = None) -> Counter:
    """Executions of each block of ``region`` (in address order, entered at
    ``entry``, else its first) for one entry of ``trips`` PTX iterations; an Unreadable
    when a guard cannot be evaluated or the path does not use up exactly the
    trips (the guards then disagree with the counter read)."""
    by_name = {b.name: b for b in region}
    out: Counter = Counter()
    b: SassBlock | None = by_name[entry] if entry is not None else region[0]
    remaining = trips
    preds: dict[str, bool] = {}
    budget = 4 * (trips + len(region)) + 16
    while b is not None:
        out[b.name] += 1
        budget -= 1
        if budget < 0 or remaining < 0:
            raise Unreadable(f"the guards run past the trip count {trips} at {b.name}")
        remaining, taken = _step(b, ctr, remaining, preds)
        if taken is None:  # falls through: to the next block in address order, if it is ours
            k = region.index(b)
            nxt = b.succs[0] if len(b.succs) == 1 else next(
                (s for s in b.succs if k + 1 < len(region) and s == region[k + 1].name), None)
        else:
            nxt = taken
        b = by_name.get(nxt) if nxt is not None else None
    if remaining != 0:
        raise Unreadable(f"the guards leave {remaining} of {trips} iterations unrun")
    return out


def region_counts(blocks: list[SassBlock], factors: dict[str, int], trips: Counter) -> dict[str, int]:
    """{SASS block: executions} for every block of one unrolled loop (the
    blocks with a ``factors`` entry, from ``sass_blocks.unroll_factors``)
    over all entries (``trips``: {trip count: entries}); Unreadable when its
    guards cannot be read."""
    region = sorted((b for b in blocks if b.name in factors), key=lambda b: b.addresses[0])
    ours = {b.name for b in region}
    entered = [b for b in region if any(p not in ours for p in b.preds)]
    if not entered:
        raise Unreadable("no block of the region is entered from outside it")

    rem = [b for b in region if factors[b.name] == 1 and b.name in b.succs]
    if len(rem) != 1:
        raise Unreadable(f"{len(rem)} one-copy loops in the region, not one remainder loop")
    ctr = loop_counter(rem[0])
    total: Counter = Counter({b.name: 0 for b in region})
    for n, entries in trips.items():
        for name, c in walk(region, ctr, n, entered[0].name).items():
            total[name] += c * entries
    return dict(total)
