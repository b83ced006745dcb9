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

__all__ = ["LoopCounter", "LoopRecords", "Unreadable", "loop_counter", "walk", "region_counts", "recording_plan"]

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


# --- recording ----------------------------------------------------------------

@dataclass(frozen=True)
class LoopRecords:
    """How SASS-guided mode records one loop ptxas unrolled again
    (``recording_plan``): per PTX iteration one body copy (``body``: {PTX
    line: SASS opcodes}, the lines every block of the loop copies whole), the
    main loop's own control after every ``k``-th iteration (``every_k``), and
    on leaving the loop after n iterations the control of the guards, chunk
    and remainder loop that n runs (``at_exit[reduce(n)]``, ``reduce``
    folding n >= 2k onto [k, 2k): those blocks' counts repeat with period k
    there). Control records are (PTX line, SASS opcode) in address order."""
    lines: tuple[int, ...]
    k: int
    body: dict[int, list[str]]
    every_k: list[tuple[int, str]]
    at_exit: list[list[tuple[int, str]]]

    @staticmethod
    def reduce(n: int, k: int) -> int:
        return n if n < 2 * k else k + (n - k) % k


def _lined(b: SassBlock, default: int) -> list[tuple[int, object]]:
    """(PTX line, inst) of ``b``: an instruction naming no line goes with the
    one before it, as the line map does."""
    out, line = [], default
    for i in b.insts:
        line = i.line if i.line is not None else line
        out.append((line, i))
    return out


def _spelled(inst) -> str:
    return f"!{inst.opcode}" if inst.pred == "@!PT" else inst.opcode  # as sass_guided records it


def recording_plan(blocks: list[SassBlock], factors: dict[str, int], lines: list[int],
                   check_up_to: int = 64) -> LoopRecords:
    """The records of one unrolled loop (PTX block of ``lines``; its SASS
    blocks and their body copies in ``factors``) such that a warp entering it
    for n iterations records exactly what ptxas's blocks run for n
    (``region_counts``' counts times each block's instructions), checked for
    n = 1..``check_up_to``; Unreadable where the guards cannot be read or the
    counts do not split into per-iteration body and per-block control."""
    region = sorted((b for b in blocks if b.name in factors), key=lambda b: b.addresses[0])
    main = max(region, key=lambda b: factors[b.name])
    k = factors[main.name]
    ref = min((b for b in region if factors[b.name] == 1), key=lambda b: len(b.insts), default=None)
    if ref is None or k < 2 or main.name not in main.succs:
        raise Unreadable("no one-copy loop and self-looping main loop in the region")
    lined = {b.name: [(ln, _spelled(i)) for ln, i in _lined(b, lines[0])] for b in region}
    foreign = sorted({ln for recs in lined.values() for ln, _ in recs} - set(lines))
    if foreign:  # the line map records those per their own line's executions: counted twice
        raise Unreadable(f"the loop's SASS holds code of PTX lines {foreign} outside the loop block")
    per_op = {b.name: Counter(lined[b.name]) for b in region}
    copied = {op for op in per_op[ref.name]  # (line, opcode) every block holds once per body copy
              if all(per_op[b.name][op] == factors[b.name] * per_op[ref.name][op] for b in region)}
    body: dict[int, list[str]] = {ln: [] for ln in lines}
    for ln, op in lined[ref.name]:
        if (ln, op) in copied:
            body.setdefault(ln, []).append(op)
    control = {b.name: [rec for rec in lined[b.name] if rec not in copied] for b in region}
    counts = [_counts(region, factors, n) for n in range(2 * k)]
    for n in range(1, check_up_to + 1):  # the main loop runs floor(n/k) times, the rest repeat with period k
        got = _counts(region, factors, n)
        want = dict(counts[LoopRecords.reduce(n, k)], **{main.name: n // k})
        if got != want:
            raise Unreadable(f"the loop's counts at n={n} do not repeat with period {k}: {got} vs {want}")
    at_exit = [[rec for b in region if b is not main for _ in range(c.get(b.name, 0)) for rec in control[b.name]]
               for c in counts]
    return LoopRecords(tuple(lines), k, body, control[main.name], at_exit)


def _counts(region: list[SassBlock], factors: dict[str, int], n: int) -> dict[str, int]:
    return region_counts(region, factors, Counter({n: 1})) if n else {b.name: 0 for b in region}
