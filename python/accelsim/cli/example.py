"""``accelsim example [--out DIR] [--config NAME]``: the main job on a bundled
example. Writes a small vecadd workload in the Accel-Sim trace format, reads it
back, simulates it and prints the per-kernel results. Without ``--out`` the
trace goes to a temporary folder that is deleted when the command ends (and
the output says so); ``--out DIR`` keeps it."""
from __future__ import annotations

import tempfile


def register(sub) -> None:
    parser = sub.add_parser("example", help="generate a small vecadd trace, simulate it, "
                                            "print the results")
    parser.add_argument("--out", metavar="DIR",
                        help="keep the trace in DIR (default: a temporary folder, deleted at the end)")
    parser.add_argument("-n", type=int, default=4096, help="vector elements (default 4096)")
    parser.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    parser.add_argument("--config", default="QV100", help="GPU config (default QV100)")
    parser.set_defaults(func=_run)


def _run(args) -> int:
    from accelsim.cli import output_folder
    from accelsim.config import load_config
    from accelsim.tracegen.examples import write_vecadd

    output_folder("--out", args.out)
    load_config(args.config)  # a bad name fails before anything is written
    if args.out is None:
        with tempfile.TemporaryDirectory(prefix="accelsim-example-") as folder:
            listing = write_vecadd(folder, n=args.n, block=args.block)
            print(f"wrote the trace to a temporary folder, deleted when this command ends "
                  f"(--out DIR keeps it): {listing}")
            return _show(args, listing)
    listing = write_vecadd(args.out, n=args.n, block=args.block)
    print(f"wrote {listing}")
    return _show(args, listing)


def _show(args, listing) -> int:
    from accelsim.cli.trace_info import print_summary
    from accelsim.sim import Simulator
    from accelsim.trace import open_trace

    print_summary(open_trace(listing))
    result = Simulator(args.config).run(listing)
    columns = ["id", "name", "launch_cycle", "start_cycle", "end_cycle", "cycles",
               "warp_instructions", "ipc"]
    table = result.kernels[[c for c in columns if c in result.kernels.columns]]
    print(f"\nsimulated on {args.config}: {result.total_cycles:,} cycles in all "
          f"({result.wall_time_s:.2f} s wall)")
    print(table.to_string(index=False))
    print()
    for line in explain_cycles(result):
        print(line)
    return 0


def explain_cycles(result) -> list[str]:
    """Why the run's total differs from the kernels' cycles (a newcomer's first question)."""
    k = result.kernels
    first = int(k["launch_cycle"].min())
    lines = [f"The run's total ({result.total_cycles:,} cycles) counts everything from the "
             "first command to the last: "
             f"{first:,} cycles of host-to-device copies (MemcpyHtoD) before the first kernel "
             "launch, then the kernels."]
    for row in k.itertuples(index=False):
        wait, run = int(row.start_cycle - row.launch_cycle), int(row.end_cycle - row.start_cycle)
        lines.append(f"Kernel {row.id}'s {int(row.cycles):,} cycles run from its launch to its "
                     f"end: {wait:,} of launch latency (kernel_launch_latency) and {run:,} "
                     "executing.")
    return lines
