"""Basic blocks on both sides of ptxas (docs/ptx.md, "Basic
blocks"): the PTX blocks of a module's text, the SASS blocks of ptxas's
control-flow graph (``nvdisasm -bbcfg``), and which PTX block each SASS
block runs for.

SASS-guided mode uses the mapping to record code ptxas moved across blocks
(hoisted out of a loop, sunk past a branch, if-converted) with the block it
now sits in (``relocate``); ``flow_violations`` holds warp executions of PTX
blocks, counted by the emulator, against ptxas's graph."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace

from accelsim.errors import PtxError

__all__ = ["PtxBlocks", "SassBlock", "ptx_blocks", "parse_bbcfg", "cfg_from_listing", "attach", "map_blocks",
           "relocate", "unroll_factors",
           "flow_violations"]

# --- PTX side ------------------------------------------------------------------

_FUNC = re.compile(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)")
_LABEL = re.compile(r"^([\w$.%]+)\s*:")
_GUARD = re.compile(r"^@!?%?[\w$.]+\s+")
_BRA = re.compile(r"^bra(?:\.uni)?\s+([\w$.%]+)\s*;")
_ENDS = re.compile(r"^(?:ret|exit|trap)\b")


@dataclass
class PtxBlocks:
    """The PTX basic blocks of a module: ``block[line]`` (a global block
    number per instruction line), each block's lines and successors."""
    block: dict[int, int] = field(default_factory=dict)
    lines: list[list[int]] = field(default_factory=list)
    succs: list[list[int]] = field(default_factory=list)
    function: list[str] = field(default_factory=list)


def _statements(text: str):
    """(function name, line, label or None, code without its guard, guarded)
    per statement of each body, a label on its own line included (code '').
    Statements are found as in sass_guided.annotate_ptx: code inside a body
    that starts a statement."""
    depth, at_start, name = 0, True, ""
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        code = raw.split("//", 1)[0].strip()
        if depth == 0 and re.search(r"\.(entry|func)\b", code) and (m := _FUNC.search(" ".join(lines[n - 1:n + 3]))):
            name = m.group(1)
        if code and depth > 0 and at_start:
            if m := _LABEL.match(code):
                yield name, n, m.group(1), "", False
            elif not code.startswith((".", "{", "}")):
                yield name, n, None, _GUARD.sub("", code), code.startswith("@")
        if code:
            depth += code.count("{") - code.count("}")
            at_start = code.endswith((";", "{", "}", ":"))


def ptx_blocks(text: str) -> PtxBlocks:
    """Leaders: a body's first instruction, a labelled one, and the one after
    a branch, ret, exit or trap (guarded or not)."""
    out = PtxBlocks()
    funcs: dict[str, list[tuple]] = {}
    for name, *stmt in _statements(text):
        funcs.setdefault(name, []).append(tuple(stmt))
    for name, stmts in funcs.items():
        _function_blocks(out, name, stmts)
    return out


def _function_blocks(out: PtxBlocks, name: str, stmts: list[tuple]) -> None:
    label_block: dict[str, int] = {}
    pending: list[str] = []
    new = True
    ends: list[tuple[int, str | None, bool]] = []  # per block: (block, branch target, falls through)
    for n, label, code, guarded in stmts:
        if label is not None:
            pending.append(label)
            new = True
            continue
        if new:
            out.lines.append([])
            out.succs.append([])
            out.function.append(name)
            label_block.update((lb, len(out.lines) - 1) for lb in pending)
            ends.append((len(out.lines) - 1, None, True))
            pending, new = [], False
        cur = len(out.lines) - 1
        out.block[n] = cur
        out.lines[cur].append(n)
        if m := _BRA.match(code):
            ends[-1] = (cur, m.group(1), guarded)
            new = True
        elif _ENDS.match(code):
            ends[-1] = (cur, None, guarded)
            new = True
    for i, (b, target, falls) in enumerate(ends):
        if target is not None and target in label_block:
            out.succs[b].append(label_block[target])
        if falls and i + 1 < len(ends):
            out.succs[b].append(ends[i + 1][0])


# --- SASS side -----------------------------------------------------------------

_CLUSTER = re.compile(r'^subgraph\s+"cluster_(.+)"\s*\{')
_NODE = re.compile(r'^"([^"]+)"\s*$')
_OFFSET = re.compile(r"(?:\\l|<entry>|<exit\d+>)([0-9a-fA-F]{4,}):\\ ")
_EDGE = re.compile(r'^"([^"]+)":\w+(?::\w+)?\s*->\s*"([^"]+)"')


@dataclass
class SassBlock:
    name: str
    function: str
    addresses: list[int]
    succs: list[str] = field(default_factory=list)
    preds: list[str] = field(default_factory=list)
    insts: list = field(default_factory=list)   # sass_guided.SassInst, filled by attach


def parse_bbcfg(text: str, path: str = "<nvdisasm -bbcfg>") -> dict[str, list[SassBlock]]:
    """{function: its basic blocks in address order} from ``nvdisasm -bbcfg
    -poff`` (graphviz: one cluster per function, one node per block with
    its instruction offsets, one edge per control transfer)."""
    funcs: dict[str, list[SassBlock]] = {}
    by_name: dict[str, SassBlock] = {}
    edges: list[tuple[str, str]] = []
    func, node = None, None
    for n, raw in enumerate(text.splitlines(), 1):
        if m := _CLUSTER.match(raw):
            func = m.group(1)
            funcs[func] = []
        elif m := _NODE.match(raw):
            node = m.group(1)
        elif raw.startswith("[label=") and node is not None:
            if func is None:
                raise PtxError(f"{path}:{n}: a block outside a function's cluster", path=path, line=n)
            addrs = [int(a, 16) for a in _OFFSET.findall(raw)]
            if addrs:
                by_name[node] = SassBlock(node, func, addrs)
                funcs[func].append(by_name[node])
            node = None
        elif m := _EDGE.match(raw):
            edges.append((m.group(1), m.group(2)))
    for src, dst in edges:  # an edge may name a block the text defines later
        a, b = by_name.get(src), by_name.get(dst)
        if a is not None and b is not None and b.name not in a.succs:
            a.succs.append(b.name)
            b.preds.append(a.name)
    for blocks in funcs.values():
        blocks.sort(key=lambda b: b.addresses[0])
    return funcs


def attach(blocks: dict[str, list[SassBlock]], funcs: dict) -> None:
    """Fills each block's instructions from the ``nvdisasm -g`` listing
    (sass_guided.parse_nvdisasm): same section or routine, same address."""
    by_routine: dict[str, dict[int, object]] = {}
    for f in funcs.values():
        for inst in f.insts:
            by_routine.setdefault(inst.routine, {})[inst.address] = inst
            by_routine.setdefault(f.name, {}).setdefault(inst.address, inst)
    for name, bl in blocks.items():
        table = by_routine.get(name, {})
        for b in bl:
            b.insts = [table[a] for a in b.addresses if a in table]


_BRANCH_TARGET = re.compile(r"`\(([^)]+)\)")
_NO_FALL_THROUGH = ("BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "KILL")
_ENDS_BLOCK = (*_NO_FALL_THROUGH, "CALL")  # not BREAK: nvdisasm's graph goes on after it


def _without_padding(insts: list) -> list:
    """The routine less the tail nvdisasm's graph leaves out: alignment NOPs
    and the branch to itself after the last exit."""
    end = len(insts)
    while end and insts[end - 1].opcode == "NOP":
        end -= 1
    if end and insts[end - 1].opcode == "BRA" and _BRANCH_TARGET.findall(insts[end - 1].operands) == \
            [insts[end - 1].label]:
        end -= 1
    return insts[:end]


def _leaders(insts: list) -> set[int]:
    """Indices starting a block: the first, a labelled one (nvdisasm labels
    branch targets and the guarded exits it splits off), and the one after
    a control transfer."""
    out = {0}
    for k, inst in enumerate(insts):
        if inst.label is not None:
            out.add(k)
        if inst.opcode.split(".")[0] in _ENDS_BLOCK and k + 1 < len(insts):
            out.add(k + 1)
    return out


def cfg_from_listing(funcs: dict) -> dict[str, list[SassBlock]]:
    """ptxas's control-flow graph rebuilt from the ``nvdisasm -g -c`` listing
    (``sass_guided.parse_nvdisasm``), where nvdisasm cannot draw it (it does
    no flow analysis on an older toolkit's cubin): blocks start as
    ``_leaders`` says, a block falls through unless it ends in an unguarded
    jump or exit, and a branch leads to its target label. On the example
    kernels' Turing SASS this is nvdisasm's own graph (tests)."""
    out: dict[str, list[SassBlock]] = {}
    for f in funcs.values():
        by_routine: dict[str, list] = {}
        for inst in f.insts:
            by_routine.setdefault(inst.routine or f.name, []).append(inst)
        for routine, insts in by_routine.items():
            out[routine] = _routine_blocks(routine, insts)
    return out


def _routine_blocks(routine: str, insts: list) -> list[SassBlock]:
    insts = _without_padding(insts)
    starts = sorted(_leaders(insts))
    blocks, at_label = [], {}
    for n, (lo, hi) in enumerate(zip(starts, [*starts[1:], len(insts)])):
        first = insts[lo]
        name = routine if lo == 0 else (first.label or f"{routine}.BB{n}")
        blocks.append(SassBlock(name, routine, [i.address for i in insts[lo:hi]], insts=insts[lo:hi]))
        if first.label is not None:
            at_label[first.label] = blocks[-1]
    for k, b in enumerate(blocks):
        for t in _edges(b, blocks[k + 1] if k + 1 < len(blocks) else None, at_label):
            if t.name not in b.succs:
                b.succs.append(t.name)
                t.preds.append(b.name)
    return blocks


def _edges(b: SassBlock, after: SassBlock | None, at_label: dict[str, SassBlock]) -> list[SassBlock]:
    """Where ``b`` leads: its branch's target label, and ``after`` unless it
    ends in an unguarded jump or exit."""
    last = b.insts[-1]
    op = last.opcode.split(".")[0]
    out = [at_label[t] for t in _BRANCH_TARGET.findall(last.operands)
           if op in _TRANSFER and op != "CALL" and t in at_label]
    if after is not None and (last.pred or op not in _NO_FALL_THROUGH):
        out.append(after)
    return out


# control transfers ptxas does not move across blocks: they make the blocks
_TRANSFER = ("BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", "BREAK", "BRK", "KILL")
# bookkeeping a block may hold alone: reconvergence, which runs as often as
# the block it leads into
_CONVERGENCE = ("BSYNC", "WARPSYNC", "NOP", "BMOV")


def _filler(b: SassBlock) -> bool:
    """Reconvergence bookkeeping and jumps ptxas added, nothing else."""
    return bool(b.insts) and all(i.opcode.split(".")[0] in _CONVERGENCE or (i.opcode == "BRA" and not i.pred)
                                 for i in b.insts)


def _vote(b: SassBlock, ptx: PtxBlocks) -> int | None:
    ours = [i for i in b.insts if i.line in ptx.block]
    votes = Counter(ptx.block[i.line] for i in ours if not i.pred) or Counter(ptx.block[i.line] for i in ours)
    return min(votes, key=lambda k: (-votes[k], k)) if votes else None


def _home(b: SassBlock, ptx: PtxBlocks) -> int | None:
    last = b.insts[-1] if b.insts else None
    if last is not None and last.line in ptx.block and last.opcode.split(".")[0] in _TRANSFER:
        return ptx.block[last.line]
    return _vote(b, ptx)


def map_blocks(blocks: list[SassBlock], ptx: PtxBlocks) -> dict[str, int | None]:
    """{SASS block: the PTX block it runs for}. A block ending in a control
    transfer runs for that transfer's PTX block (ptxas moves no branch
    across blocks); otherwise for the PTX block most of its unguarded
    instructions come from (guarded ones, ptxas's if-conversion, vote only
    when there are no others; ties go to the earlier block), unless a
    predecessor's PTX block cannot lead there (``_unreachable_to_successor``).
    A block of reconvergence bookkeeping (BSYNC) and jumps alone runs as the
    one block that always leads into it, else as the block it leads into; one
    without lines of ours (a subroutine of ptxas) takes its single
    predecessor's, else None."""
    out = {b.name: _home(b, ptx) for b in blocks}
    by_name = {b.name: b for b in blocks}
    _unreachable_to_successor(blocks, out, ptx)
    for b in blocks:  # a filler is the tail of the one path into it, else the head of where it leads
        prev, nxt, steps = b, b, 0
        while _filler(prev) and len(prev.preds) == 1 and by_name.get(prev.preds[0], b).succs == [prev.name] \
                and steps < len(blocks):
            prev, steps = by_name[prev.preds[0]], steps + 1
        if steps and not _filler(prev):
            out[b.name] = out[prev.name]
            continue
        steps = 0
        while _filler(nxt) and len(nxt.succs) == 1 and nxt.succs[0] in by_name and steps < len(blocks):
            nxt, steps = by_name[nxt.succs[0]], steps + 1
        if steps:
            out[b.name] = out[nxt.name]
    for b in blocks:
        if out[b.name] is None and len(b.preds) == 1 and b.preds[0] in by_name:
            out[b.name] = out[b.preds[0]]
    return out


def _reach(ptx: PtxBlocks) -> list[set[int]]:
    """Per PTX block, the blocks control can reach from it (itself when in a loop)."""
    reach = []
    for p in range(len(ptx.lines)):
        seen: set[int] = set()
        frontier = [p]
        while frontier:
            for q in ptx.succs[frontier.pop()]:
                if q not in seen:
                    seen.add(q)
                    frontier.append(q)
        reach.append(seen)
    return reach


def _unreachable_to_successor(blocks: list[SassBlock], out: dict[str, int | None], ptx: PtxBlocks) -> None:
    """A block mapped to a PTX block that one of its predecessors' PTX
    blocks (looking through reconvergence fillers) cannot lead to, or that
    cannot lead to one of its successors': if its
    instructions' vote fits, its last branch came from a later block ptxas
    if-converted into it; else it holds only code ptxas sank to a join (a
    value computed early, placed where the paths meet) and runs as the
    block it leads into."""
    reach, by_name = _reach(ptx), {b.name: b for b in blocks}

    def real_preds(b: SassBlock, seen: set[str]) -> list[int | None]:
        homes: list[int | None] = []
        for p in b.preds:
            if p in seen or p not in by_name:
                continue
            seen.add(p)
            homes += real_preds(by_name[p], seen) if _filler(by_name[p]) else [out.get(p)]
        return homes

    def onward(b: SassBlock) -> int | None:
        steps = 0
        while _filler(b) and len(b.succs) == 1 and b.succs[0] in by_name and steps < len(blocks):
            b, steps = by_name[b.succs[0]], steps + 1
        return out[b.name]

    def fits(home: int | None, preds: list[int | None], succs: list[int | None]) -> bool:
        return home is not None and all(home == p or home in reach[p] for p in preds if p is not None) and \
            all(s == home or s in reach[home] for s in succs if s is not None)

    for b in reversed(blocks[1:]):  # later blocks first: a chain of them ends where it leads
        home, preds = out[b.name], real_preds(b, {b.name})
        succs = [] if _may_end(b) else [out.get(s) for s in b.succs]  # a guarded EXIT falls through elsewhere
        if _filler(b) or home is None or not preds or None in preds or fits(home, preds, succs):
            continue
        if fits(vote := _vote(b, ptx), preds, succs):  # an if-converted branch of a later block ends it
            out[b.name] = vote
        elif len(b.succs) == 1 and b.succs[0] in by_name:
            out[b.name] = onward(by_name[b.succs[0]])


def _loop_nests(ptx: PtxBlocks) -> list[frozenset[int]]:
    """Per PTX block, the blocks it runs in a loop with (those it reaches
    and that reach it back); empty when it is in no loop."""
    reach = _reach(ptx)
    return [frozenset(q for q in reach[p] if p in reach[q]) for p in range(len(ptx.lines))]


def relocate(blocks: list[SassBlock], mapping: dict[str, int | None], ptx: PtxBlocks) -> tuple[dict[int, int], int]:
    """({address: PTX line}, how many moved) for the unguarded instructions
    ptxas moved into or out of a loop (hoisted loop-invariant code, a
    rematerialised value): an instruction whose line's PTX block and the
    PTX block its SASS block runs for are not in the same loop is recorded
    with the nearest instruction before it (else after it) whose line is of
    the block it sits in, so it executes as often as that block. Moves that
    stay within a loop nest (sinking past a branch, if-conversion) keep
    their line, and so do guarded instructions: their PTX guard gives the
    lanes their SASS guard would."""
    nests = _loop_nests(ptx)
    moved: dict[int, int] = {}
    for b in blocks:
        home = mapping.get(b.name)
        if home is None:
            continue
        anchors = [(k, i.line) for k, i in enumerate(b.insts) if i.line in ptx.block and ptx.block[i.line] == home]
        if not anchors:  # a reconvergence block: runs as its successor's PTX block's first line
            anchors = [(-1, ptx.lines[home][0])]
        for k, inst in enumerate(b.insts):
            own = ptx.block.get(inst.line) if inst.line is not None else None
            if inst.pred or own is None or own == home or nests[own] == nests[home]:
                continue
            before = [line for j, line in anchors if j < k]
            moved[inst.address] = before[-1] if before else anchors[0][1]
    return moved, len(moved)


def with_lines(insts: list, moved: dict[int, int]) -> list:
    return [replace(i, line=moved[i.address]) if i.address in moved else i for i in insts]


# --- the check ----------------------------------------------------------------

_END_OF_THREAD = ("EXIT", "RET", "BRK", "KILL", "CALL")  # CALL: to a subroutine the graph keeps apart


def _may_end(b: SassBlock) -> bool:
    """Whether a run of ``b`` can leave the graph (the warp's lanes exit, or
    control goes to another function) instead of to a successor."""
    return bool(b.insts) and b.insts[-1].opcode.split(".")[0] in _END_OF_THREAD


def _known_sum(names: list[str], count: dict[str, int | None]) -> int | None:
    vals = [count.get(n) for n in names]
    return None if not vals or any(v is None for v in vals) else sum(v for v in vals if v is not None)


def restructured(blocks: list[SassBlock], mapping: dict[str, int | None]) -> set[int]:
    """PTX blocks ptxas turned into a loop of several SASS blocks (unrolled
    again, software-pipelined, with a remainder loop): there the SASS blocks
    run a number of times the PTX block's count alone does not give."""
    by_name = {b.name: b for b in blocks}
    split = Counter(v for v in mapping.values() if v is not None)
    out = set()
    for b in blocks:
        home = mapping.get(b.name)
        if home is None or split[home] < 2:
            continue
        for s in b.succs:
            t = by_name.get(s)
            if t is not None and mapping.get(s) == home and t.addresses[0] <= b.addresses[0]:
                out.add(home)
    return out


def _back_edge_blocks(blocks: list[SassBlock], mapping: dict[str, int | None], home: int) -> list[SassBlock]:
    """The blocks of ``home`` that close a loop of ``home`` (a branch back to
    one of its blocks at or before them)."""
    by_name = {b.name: b for b in blocks}
    return [b for b in blocks if mapping.get(b.name) == home and any(
        s in by_name and mapping.get(s) == home and by_name[s].addresses[0] <= b.addresses[0] for s in b.succs)]


def unroll_factors(blocks: list[SassBlock], mapping: dict[str, int | None], home: int,
                   ptx: PtxBlocks) -> dict[str, int]:
    """How many copies of PTX block ``home``'s body each SASS block mapped to
    it holds, for a block ptxas restructured (``restructured``): ptxas
    unrolls a loop of unknown trip count into a main loop of u copies, a
    chunk of u/2 and a one-copy remainder loop, behind guards. The reference
    is the smallest loop block of ``home`` (one copy); a block's factor is
    the most common ratio, over the reference's lines it also holds, of its
    instructions of a line to the reference's (a line is copied whole). A
    block holding under half the reference's lines copies no body: loop
    control and guards, factor 0. Empty when no loop block holds half the
    PTX block's lines (a loop ptxas split around a reconvergence or a retry,
    not a copied body)."""
    loops = _back_edge_blocks(blocks, mapping, home)
    if not loops:
        return {}
    ref = Counter(i.line for i in min(loops, key=lambda b: len(b.insts)).insts)
    if 2 * sum(1 for n in ptx.lines[home] if ref[n]) < len(ptx.lines[home]):
        return {}
    out = {}
    for b in blocks:
        if mapping.get(b.name) != home:
            continue
        have = Counter(i.line for i in b.insts)
        ratios = Counter(have[n] // ref[n] for n in ref if have[n] and have[n] % ref[n] == 0)
        shared = sum(1 for n in ref if have[n])
        out[b.name] = ratios.most_common(1)[0][0] if ratios and 2 * shared >= len(ref) else 0
    return out


def _exit_joins(blocks: list[SassBlock], mapping: dict[str, int | None], ptx: PtxBlocks) -> set[int]:
    """PTX blocks that only return and that branches lead to: ptxas makes
    each such branch a guarded EXIT, so a warp whose lanes all left there
    never runs the final EXIT the PTX block's count includes."""
    out = set()
    for home in set(mapping.values()):
        if home is None or len(ptx.lines[home]) != 1:
            continue
        if sum(home in succ for succ in ptx.succs) > 1 or any(
                home in ptx.succs[p] and p + 1 != home for p in range(len(ptx.succs))):
            out.add(home)
    return out


def _sass_counts(blocks: list[SassBlock], mapping: dict[str, int | None], counts: dict[int, int],
                 given: dict[str, int], skip: set[int]) -> dict[str, int | None]:
    """Each SASS block's count: its own where given, else its PTX block's
    (None: unmapped, or a final EXIT not compared)."""
    out: dict[str, int | None] = {}
    for b in blocks:
        home = mapping.get(b.name)
        out[b.name] = given[b.name] if b.name in given else \
            None if home is None or home in skip else counts.get(home, 0)
    return out


def flow_violations(blocks: list[SassBlock], mapping: dict[str, int | None], counts: dict[int, int],
                    warps: int, ptx: PtxBlocks | None = None,
                    sass_counts: dict[str, int] | None = None) -> tuple[list[str], list[str]]:
    """(violations, loose) of the warp executions of PTX blocks (``counts``,
    from the emulator) against ptxas's graph, each SASS block taking its PTX
    block's count: the entry block runs once per warp; a block runs at most
    as often as its predecessors together (each run was entered from one)
    and as its successors together (each run leaves to one, unless it can
    end the warp); across an edge that is its source's only way out and its
    target's only way in, both run equally often. ``loose``: what does not
    fit inside loops ptxas restructured (``restructured``), where PTX counts
    cannot give SASS counts, unless ``sass_counts`` gives every SASS block
    of such a loop its own count (``sass_unroll.region_counts``): then they
    are held to the graph like the rest. A final EXIT reached by branches to
    a PTX ``ret`` is not compared (``_exit_joins``)."""
    by_name = {b.name: b for b in blocks}
    skip = _exit_joins(blocks, mapping, ptx) if ptx is not None else set()
    given = sass_counts or {}
    loops = {h for h in restructured(blocks, mapping)
             if not all(b.name in given for b in blocks if mapping.get(b.name) == h)}
    count = _sass_counts(blocks, mapping, counts, given, skip)
    out: tuple[list[str], list[str]] = ([], [])

    def report(msg: str, *names: str) -> None:
        out[any(mapping.get(n) in loops for n in names)].append(msg)

    if blocks and count[blocks[0].name] not in (None, warps):
        report(f"entry block {blocks[0].name} ran {count[blocks[0].name]} times for {warps} warps", blocks[0].name)
    for b in blocks:
        c = count[b.name]
        if c is None:
            continue
        into = _known_sum(b.preds, count)
        if b is not blocks[0] and into is not None and c > into:
            report(f"{b.name} ran {c} times, its predecessors {b.preds} {into}", b.name, *b.preds)
        if _may_end(b):
            continue
        onward = _known_sum(b.succs, count)
        if onward is not None and c > onward:
            report(f"{b.name} ran {c} times, its successors {b.succs} {onward}", b.name, *b.succs)
        nxt = by_name.get(b.succs[0]) if len(b.succs) == 1 else None
        if nxt is not None and len(nxt.preds) == 1 and count[nxt.name] not in (None, c):
            report(f"{b.name} ran {c} times, {nxt.name} (its only way on) {count[nxt.name]}", b.name, nxt.name)
    return out
