"""PTX basic blocks against ptxas's control-flow graph (docs/ptx.md,
"Basic blocks"): for each example kernel, the emulator counts how many times
each warp ran each PTX block (``records="ptx"``: one record per executed
PTX instruction), each SASS block of ``nvdisasm -bbcfg`` takes the count of
the PTX block it was mapped to, and the counts must fit the graph
(``sass_blocks.flow_violations``). ``structure`` checks any module without
running it: every block ptxas made is found in the listing and mapped, and
every SASS edge leads to a PTX block reachable from its source's.

``python -m accelsim.studies.block_check`` prints both for every example kernel."""
from __future__ import annotations

import argparse
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from accelsim import _core
from accelsim.ptx import Device
from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_guided as sg
from accelsim.trace._records import RAW_DTYPE

__all__ = ["line_counts", "check_case", "unrolled", "structure", "suite_files", "check_suite_file", "main"]


def line_counts(dev: Device, case, sequences: dict[str, list] | None = None) -> dict[str, tuple[Counter, int]]:
    """{kernel: (warp executions per PTX line, warps)} of the launches
    ``case(dev)`` makes on a ``records="ptx"`` Device, emulated; with
    ``sequences``, each warp's executed lines in order go there per kernel."""
    from accelsim.ptx._tables import tables

    out: dict[str, tuple[Counter, int]] = {}

    def flush(*_args, **_kwargs) -> None:
        # as save_trace does: copies applied and launches emulated in queue
        # order (device memory changes as a run would change it), no timing
        for q in dev._pending:
            if isinstance(q.command, _core.PtxCopy):
                q.command.apply()
                continue
            lines, warps = out.setdefault(q.command.kernel, (Counter(), 0))
            src = _core.PtxBlocks(tables(), q.command, dev.arch, 1)
            while (b := src.next_block()) is not None:
                _, raw, warp_begin, _ = b
                executed = np.frombuffer(raw, dtype=RAW_DTYPE)["line"]
                lines.update(executed.tolist())
                if sequences is not None:
                    sequences.setdefault(q.command.kernel, []).extend(
                        executed[lo:hi] for lo, hi in zip(warp_begin[:-1], warp_begin[1:]))
                warps += len(warp_begin) - 1
            out[q.command.kernel] = (lines, warps)
        dev._pending.clear()

    dev._flush = flush  # type: ignore[method-assign]  # counts what each flush runs instead of timing it
    case()
    dev._flush()
    return out


def block_counts(ptx: sb.PtxBlocks, lines: Counter) -> tuple[dict[int, int], list[str]]:
    """Warp executions per PTX block (its first line's) and the blocks whose
    lines ran unequally often (a block runs whole or not at all)."""
    counts, uneven = {}, []
    for b, ls in enumerate(ptx.lines):
        counts[b] = lines.get(ls[0], 0)
        if any(lines.get(n, 0) != counts[b] for n in ls):
            uneven.append(f"PTX block {b} (lines {ls[0]}-{ls[-1]}) ran unevenly: {[lines.get(n, 0) for n in ls]}")
    return counts, uneven


def check_case(case: str, config: str = "QV100", arch: int = 70, volta_sass: bool = False) -> list[dict]:
    """One row per kernel of sass_compare's ``case``: SASS and PTX block
    counts, how many SASS blocks were mapped, and the violations found
    (``volta_sass``: against Volta's own SASS, see sass_guided.sass_map)."""
    from accelsim.studies import sass_compare

    mods = sass_compare.modules()
    dev = Device(config, arch=arch, records="ptx", regs_per_thread=32)
    seqs: dict[str, list] = {}
    ran = line_counts(dev, lambda: sass_compare.CASES[case](dev, mods), seqs)
    rows = []
    for kernel, (lines, warps) in ran.items():
        module = next(m for m in mods.values() if kernel in m.kernel_names)
        smap = sg.sass_map(module.text, arch, module.name, own_volta=volta_sass)
        counts, uneven = block_counts(smap.ptx_blocks, lines)
        blocks, mapping = smap.blocks[kernel], smap.block_map[kernel]
        loops = unrolled_loops(blocks, mapping, smap.ptx_blocks, seqs.get(kernel, []))
        given = {name: c for loop in loops for name, c in loop["sass_counts"].items()}
        bad, loose = sb.flow_violations(blocks, mapping, counts, warps, smap.ptx_blocks, given)
        rows.append({"case": case, "kernel": kernel, "warps": warps, "sass_blocks": len(blocks),
                     "mapped": sum(v is not None for v in mapping.values()),
                     "moved": smap.stats[kernel].get("moved_to_block", 0),
                     "violations": uneven + bad, "in_restructured_loops": loose,
                     "unrolled": unrolled(blocks, mapping, smap.ptx_blocks), "unrolled_loops": loops})
    return rows


def entry_trips(ptx: sb.PtxBlocks, home: int, sequences: list) -> Counter:
    """{trip count: entries} of PTX block ``home`` (a loop of itself alone):
    each run of consecutive executions of it in a warp's lines is one entry."""
    first = {ls[0]: b for b, ls in enumerate(ptx.lines)}
    out: Counter = Counter()
    for seq in sequences:
        run = 0
        for line in seq.tolist():
            b = first.get(line)
            if b is None:
                continue
            if b == home:
                run += 1
            elif run:
                out[run] += 1
                run = 0
        if run:
            out[run] += 1
    return out


def closed_form(factors: dict[str, int], blocks, trips: Counter) -> dict[str, int]:
    """The body blocks' executions as floor and remainder: a main loop of k
    copies floor(n/k) times, a straight chunk of c once when n mod k >= c,
    the one-copy remainder loop what is left, summed over the entries."""
    body = sorted(((f, b) for b in blocks if (f := factors.get(b.name))), key=lambda fb: -fb[0])
    out = {b.name: 0 for _, b in body}
    for n, entries in trips.items():
        left = n
        for f, b in body:
            runs = left // f if b.name in b.succs else int(left >= f)
            out[b.name] += runs * entries
            left -= runs * f
    return out


def unrolled_loops(blocks, mapping, ptx: sb.PtxBlocks, sequences: list) -> list[dict]:
    """Per loop ptxas unrolled again: its trip counts, each SASS block's
    executions from ptxas's own guards (``sass_unroll.region_counts``;
    empty with ``unreadable`` set where they cannot be read), and the body
    blocks' executions in closed form (``closed_form``) beside them."""
    from accelsim.ptx import sass_unroll

    out = []
    for home in sorted(sb.restructured(blocks, mapping)):
        factors = sb.unroll_factors(blocks, mapping, home, ptx)
        if not any(f > 1 for f in factors.values()) or home not in ptx.succs[home]:
            continue
        trips = entry_trips(ptx, home, sequences)
        row = {"ptx_block": home, "factors": factors, "entries": sum(trips.values()),
               "iterations": sum(n * e for n, e in trips.items()), "sass_counts": {}, "unreadable": "",
               "closed_form": closed_form(factors, blocks, trips)}
        try:
            row["sass_counts"] = sass_unroll.region_counts(blocks, factors, trips)
        except sass_unroll.Unreadable as e:
            row["unreadable"] = str(e)
        out.append(row)
    return out


def unrolled(blocks, mapping, ptx: sb.PtxBlocks) -> dict[int, list[int]]:
    """{PTX block: the body copies of its SASS blocks that hold any, largest
    first} for every block ptxas restructured into a copied body (the main
    loop's unroll factor first); loops it only split are left out."""
    out = {}
    for home in sorted(sb.restructured(blocks, mapping)):
        copies = sorted((f for f in sb.unroll_factors(blocks, mapping, home, ptx).values() if f), reverse=True)
        if copies:
            out[home] = copies
    return out


def structure(smap: sg.SassMap, kernel: str) -> list[str]:
    """What does not fit without running the kernel: a block of ptxas's graph
    whose instructions the listing lacks, a block with lines of ours left
    unmapped, a SASS edge to a PTX block its source's cannot reach."""
    ptx, blocks, mapping = smap.ptx_blocks, smap.blocks[kernel], smap.block_map[kernel]
    out = []
    reach: dict[int, set[int]] = {}

    def reachable(p: int) -> set[int]:
        if p not in reach:
            seen, todo = {p}, [p]
            while todo:
                for q in ptx.succs[todo.pop()]:
                    if q not in seen:
                        seen.add(q)
                        todo.append(q)
            reach[p] = seen
        return reach[p]

    by_name = {b.name: b for b in blocks}
    for b in blocks:
        if len(b.insts) != len(b.addresses):
            out.append(f"{b.function} {b.name}: {len(b.addresses) - len(b.insts)} instructions not in the listing")
        if mapping[b.name] is None and any(i.line in ptx.block for i in b.insts):
            out.append(f"{b.function} {b.name}: has PTX lines but no PTX block")
        p = mapping[b.name]
        for s in b.succs:
            q = mapping.get(s) if s in by_name else None
            if p is not None and q is not None and ptx.function[p] == ptx.function[q] and q not in reachable(p):
                out.append(f"{b.name} -> {s}: PTX block {q} is not reachable from {p}")
    return out


def suite_files(apps_root: Path) -> list[Path]:
    """The .cu files of the real suites (shared data's apps/) that define kernels."""
    return sorted(p for p in Path(apps_root).rglob("*.cu") if "__global__" in p.read_text(errors="replace"))


def check_suite_file(cu: Path, nvcc: str, arch: int = 70) -> list[dict]:
    """One row per kernel of ``cu`` compiled alone (``nvcc -ptx``; its own
    and its parent folder and the suite's ``common`` folders on the include
    path) with its ``structure`` problems;
    one row with ``why`` when it does not compile."""
    with tempfile.TemporaryDirectory(prefix="accelsim-blocks-") as tmp:
        out = Path(tmp) / "k.ptx"
        inc = [cu.parent, cu.parent.parent] + [c for p in cu.parents for c in (p / "common" / "include", p / "common")
                                               if c.is_dir()]
        r = subprocess.run([nvcc, "-ptx", "-arch=sm_75", "-o", str(out), *(f"-I{d}" for d in inc), str(cu)],
                           capture_output=True, text=True)
        if r.returncode != 0 or not out.is_file():
            why = (r.stderr.strip().splitlines() or ["nvcc failed"])[-1]
            return [{"file": cu, "kernel": None, "compiled": False, "why": why[:200]}]
        text = out.read_text()
    smap = sg.sass_map(text, arch, str(cu))
    return [{"file": cu, "kernel": k, "compiled": True, "sass_blocks": len(smap.blocks[k]),
             "ptx_blocks": sum(1 for f in smap.ptx_blocks.function if f == k), "problems": structure(smap, k)}
            for k in sorted(smap.blocks)]


def suite_report(apps_root: Path, nvcc: str) -> str:
    """Every suite file: compiled or why not, its kernels' block counts and problems."""
    out = ["| file | kernel | SASS blocks | PTX blocks | problems |", "|---|---|---:|---:|---|"]
    for cu in suite_files(apps_root):
        rel = cu.relative_to(apps_root)
        for r in check_suite_file(cu, nvcc):
            if not r["compiled"]:
                out.append(f"| {rel} | does not compile alone: {r['why']} | | | |")
            else:
                out.append(f"| {rel} | {r['kernel']} | {r['sass_blocks']} | {r['ptx_blocks']} "
                           f"| {'; '.join(r['problems']) or 'none'} |")
    return "\n".join(out)


def main(argv=None) -> int:
    from accelsim.studies import sass_compare

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="QV100")
    ap.add_argument("--suite", metavar="APPS", help="instead: the structure of every kernel of the suites in APPS "
                    "(../shared/data/apps), compiled with nvcc")
    args = ap.parse_args(argv)
    if args.suite:
        from accelsim.cuda.nvcc import find_nvcc

        nvcc = find_nvcc()
        if nvcc is None:
            raise SystemExit("--suite needs nvcc (a CUDA toolkit on PATH or $CUDA_HOME)")
        print(suite_report(Path(args.suite), str(nvcc)))
        return 0
    print("| kernel | warps | SASS blocks | mapped | moved to their block | violations | in restructured loops "
          "| unrolled (copies per SASS block) | unrolled loops' block counts |")
    print("|---|---:|---:|---:|---:|---|---:|---|---|")
    for case in sass_compare.CASES:
        for r in check_case(case, args.config):
            unroll = "; ".join(f"PTX block {h}: {'/'.join(map(str, c))}" for h, c in r["unrolled"].items())
            print(f"| {r['kernel']} | {r['warps']} | {r['sass_blocks']} | {r['mapped']} | {r['moved']} "
                  f"| {'; '.join(r['violations']) or 'none'} | {len(r['in_restructured_loops'])} | {unroll or '-'} "
                  f"| {'; '.join(map(_loop_cell, r['unrolled_loops'])) or '-'} |")
    return 0


def _loop_cell(loop: dict) -> str:
    """'entries x iterations: copies=runs ... (closed form agrees)' or why not read."""
    head = f"{loop['entries']} entries, {loop['iterations']} iterations"
    if loop["unreadable"]:
        return f"{head}: guards not read ({loop['unreadable']})"
    body = sorted(((f, loop["sass_counts"][b]) for b, f in loop["factors"].items() if f), reverse=True)
    agree = all(loop["sass_counts"][b] == c for b, c in loop["closed_form"].items())
    return f"{head}: " + " ".join(f"{f}x{c}" for f, c in body) + \
        (" (= floor/remainder)" if agree else " (differs from floor/remainder)")


if __name__ == "__main__":
    raise SystemExit(main())
