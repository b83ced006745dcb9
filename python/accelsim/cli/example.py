"""``accelsim example [--out DIR] [--config NAME]``: the main job on a bundled
example. Writes a small vecadd workload in the Accel-Sim trace format, reads it
back, simulates it and prints the per-kernel results."""
from __future__ import annotations

import tempfile


def register(sub) -> None:
    parser = sub.add_parser("example", help="generate a small vecadd trace, simulate it, "
                                            "print the results")
    parser.add_argument("--out", metavar="DIR", help="where to write it (default: a temp folder)")
    parser.add_argument("-n", type=int, default=4096, help="vector elements (default 4096)")
    parser.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    parser.add_argument("--config", default="QV100", help="GPU config (default QV100)")
    parser.set_defaults(func=_run)


def _run(args) -> int:
    from accelsim.cli.trace_info import print_summary
    from accelsim.sim import Simulator
    from accelsim.trace import open_trace
    from accelsim.tracegen.examples import write_vecadd

    folder = args.out or tempfile.mkdtemp(prefix="accelsim-example-")
    listing = write_vecadd(folder, n=args.n, block=args.block)
    print(f"wrote {listing}")
    print_summary(open_trace(listing))
    result = Simulator(args.config).run(listing)
    columns = ["id", "name", "cycles", "warp_instructions", "ipc"]
    table = result.kernels[[c for c in columns if c in result.kernels.columns]]
    print(f"\nsimulated on {args.config}: {result.total_cycles:,} cycles "
          f"({result.wall_time_s:.2f} s wall)")
    print(table.to_string(index=False))
    return 0
