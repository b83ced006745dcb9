"""``accelsim trace-info PATH [--json]``: kernels and totals of a trace."""
from __future__ import annotations

import json
from pathlib import Path


def register(sub) -> None:
    parser = sub.add_parser("trace-info", help="summarise an Accel-Sim SASS trace")
    parser.add_argument("path", help="kernelslist.g, a folder holding one, or a kernel-N.traceg[.gz|.xz]")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--mix", action="store_true", help="also print the instruction mix")
    parser.set_defaults(func=_run)


def summary(trace) -> dict:
    """Kernels and totals as plain data (what --json prints). A kernel trace
    that deviates from the format in a way that is read anyway draws the same
    TraceFormatWarning a run of it does."""
    import warnings

    from accelsim.errors import TraceFormatWarning

    rows = []
    for kernel in trace:  # headers and C++ counts only: no pandas at start-up
        i, c = kernel.info, kernel.sizes()
        if c.get("trace_warnings"):
            warnings.warn(f"{trace.path}: kernel {i.id}: {c['trace_warnings']}", TraceFormatWarning,
                          stacklevel=2)
        rows.append({"id": int(i.id), "name": i.name, "grid": list(i.grid), "block": list(i.block),
                     "shmem": int(i.shmem), "nregs": int(i.nregs), "stream": int(i.stream),
                     "binary_version": int(i.binary_version),
                     "thread_blocks": int(c["thread_blocks"]),
                     "warp_instructions": int(c["warp_instructions"]),
                     "thread_instructions": int(c["thread_instructions"]), "path": i.path})
    return {"path": str(trace.path), "kernels": rows, "totals": trace.totals()}


def print_summary(trace, mix: bool = False) -> None:
    data = summary(trace)
    print(f"trace: {data['path']}")
    header = f"{'id':>4} {'grid':>14} {'block':>14} {'regs':>4} {'sm':>3} {'blocks':>7} " \
             f"{'warp insts':>11} {'thread insts':>13}  name"
    print(header)
    for k in data["kernels"]:
        grid = "({},{},{})".format(*k["grid"])
        block = "({},{},{})".format(*k["block"])
        name = k["name"] if len(k["name"]) <= 40 else k["name"][:37] + "..."
        print(f"{k['id']:>4} {grid:>14} {block:>14} {k['nregs']:>4} {k['binary_version']:>3} "
              f"{k['thread_blocks']:>7} {k['warp_instructions']:>11,} {k['thread_instructions']:>13,}  {name}")
    t = data["totals"]
    print(f"total: {t['kernels']} kernels, {t['thread_blocks']:,} thread blocks, "
          f"{t['warp_instructions']:,} warp instructions, {t['thread_instructions']:,} thread "
          f"instructions, {t['memcpy_htod']} MemcpyHtoD ({t['memcpy_htod_bytes']:,} bytes)")
    if mix:
        print()
        print(trace.instruction_mix().to_string(index=False))


def _run(args) -> int:
    from accelsim._warnings import collected
    from accelsim.trace import open_trace

    with collected() as said:  # shown on stderr as they happen, and carried into --json
        trace = open_trace(args.path)
        if ".traceg" not in Path(str(trace.path)).name:
            # A kernelslist: the same checks as a run (commands not understood are
            # warned about; one with no kernel is an error, not an empty summary).
            from accelsim.workload_check import check_commands

            check_commands(str(trace.path))
        if not args.json:
            print_summary(trace, mix=args.mix)
            return 0
        data = summary(trace)
        if args.mix:
            data["instruction_mix"] = trace.instruction_mix().to_dict(orient="records")
    print(json.dumps({**data, "warnings": said}, indent=2))
    return 0
