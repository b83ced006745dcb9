"""``accelsim bench [--json] [--quick] [--case NAME ...] [--config NAME] [--set key=value ...]
[--threads N]``."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    parser = sub.add_parser("bench", help="measure simulation speed and memory")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--case", action="append", default=None, metavar="NAME",
                        help="run only this case (repeatable)")
    parser.add_argument("--config", default="QV100", help="config name or path (default: QV100)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. memory_model=simple (repeatable)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="simulate with N threads and report the speed-up over 1 thread "
                             "(each case is measured at both, back to back)")
    parser.set_defaults(func=_bench)


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"
    return str(v)


def _bench(args) -> int:
    from accelsim.bench import run_bench
    from accelsim.cli.config_cmd import parse_overrides

    quiet = args.json
    rows = run_bench(quick=args.quick, cases=args.case, config=args.config,
                     overrides=parse_overrides(args.set), threads=args.threads,
                     progress=None if quiet else lambda n: print(f"running {n} ...", file=sys.stderr))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    cols = ["case", "wall_s", "cycles", "warp_insts", "cycles_per_s", "warp_insts_per_s",
            "peak_rss_mb", "rss_before_run_mb", "speedup_vs_ref", "meets_target"]
    if args.threads is not None:
        cols[2:2] = ["threads", "wall_1_thread_s", "speedup_vs_1_thread", "same_result", "cpu_s"]
    table = [[_fmt(r[c]) for c in cols] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) if table else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
    for t in table:
        print("  ".join(v.rjust(w) for v, w in zip(t, widths)))
    return 0
