"""``accelsim bench [--json] [--quick] [--case NAME ...] [--config NAME] [--set key=value ...]``."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    parser = sub.add_parser("bench", help="measure simulation speed and memory")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    parser.add_argument("--case", action="append", default=None, metavar="NAME",
                        help="run only this case (repeatable); 'startup' times `accelsim run "
                             "--json` and `accelsim trace-info` on a small trace")
    parser.add_argument("--config", default="QV100", help="config name or path (default: QV100)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value, e.g. memory_model=simple (repeatable)")
    parser.set_defaults(func=_bench)


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:,.0f}" if v >= 100 else f"{v:.2f}"
    return str(v)


class _Row(dict):
    def __missing__(self, key):
        return None


def _notes(rows: list, quick: bool) -> None:
    startup = [r for r in rows if r["help_wall_s"] is not None]
    if startup:
        print(f"start-up targets: <= {startup[0]['target_wall_s']} s and <= "
              f"{startup[0]['target_rss_mb']:.0f} MB; `accelsim --help` (interpreter and parser "
              f"alone) took {startup[0]['help_wall_s']:.2f} s here")
    if quick:
        print("--quick: tiny workloads, a smoke test; speed and start-up targets apply to "
              "full runs (meets_target '-')")


def _bench(args) -> int:
    from accelsim.bench import run_bench
    from accelsim.cli.config_cmd import parse_overrides

    quiet = args.json
    rows = run_bench(quick=args.quick, cases=args.case, config=args.config,
                     overrides=parse_overrides(args.set),
                     progress=None if quiet else lambda n: print(f"running {n} ...", file=sys.stderr))
    rows = [_Row(r) for r in rows]  # a column a case lacks (start-up has no cycles) shows '-'
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    cols = ["case", "wall_s", "cycles", "warp_insts", "cycles_per_s", "warp_insts_per_s",
            "peak_rss_mb", "rss_before_run_mb", "speedup_vs_ref", "meets_target"]
    table = [[_fmt(r[c]) for c in cols] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) if table else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
    for t in table:
        print("  ".join(v.rjust(w) for v, w in zip(t, widths)))
    _notes(rows, args.quick)
    return 0
