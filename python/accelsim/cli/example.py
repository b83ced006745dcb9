"""``accelsim example [--out DIR]``: writes a small vecadd workload, reads it
back and prints its summary."""
from __future__ import annotations

import tempfile


def register(sub) -> None:
    parser = sub.add_parser("example", help="generate a small vecadd trace and summarise it")
    parser.add_argument("--out", metavar="DIR", help="where to write it (default: a temp folder)")
    parser.add_argument("-n", type=int, default=4096, help="vector elements (default 4096)")
    parser.add_argument("--block", type=int, default=256, help="threads per block (default 256)")
    parser.set_defaults(func=_run)


def _run(args) -> int:
    from accelsim.cli.trace_info import print_summary
    from accelsim.trace import open_trace
    from accelsim.tracegen.examples import write_vecadd

    folder = args.out or tempfile.mkdtemp(prefix="accelsim-example-")
    listing = write_vecadd(folder, n=args.n, block=args.block)
    print(f"wrote {listing}")
    print_summary(open_trace(listing))
    return 0
