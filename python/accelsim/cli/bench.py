"""``accelsim bench [--json] [--quick] [--case NAME ...] [--config NAME] [--set key=value ...]
[--threads N]``;
``accelsim bench --sweep [--engine NAME ...]``: sweep throughput per engine."""
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
    parser.add_argument("--sweep", action="store_true",
                        help="measure sweep throughput (points per minute) per engine instead")
    parser.add_argument("--engine", action="append", default=None, metavar="NAME",
                        help="with --sweep: only this engine (serial, process, dask; repeatable)")
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
    if args.sweep:
        return _sweep_bench(args, parse_overrides(args.set))
    rows = run_bench(quick=args.quick, cases=args.case, config=args.config,
                     overrides=parse_overrides(args.set), threads=args.threads,
                     progress=None if quiet else lambda n: print(f"running {n} ...", file=sys.stderr))
    rows = [_Row(r) for r in rows]  # a column a case lacks (start-up has no cycles) shows '-'
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
    _ptx_table([r for r in rows if r["emulation_share"] is not None])
    _notes(rows, args.quick)
    return 0


def _ptx_table(rows: list) -> None:
    """PTX-mode cases: the emulation share, the PTX run's own peak RSS, the
    most records a warp held, and the same kernels' rate replayed from their
    saved trace (ptx_vs_sass_rate: the goal is >= 0.5)."""
    if not rows:
        return
    cols = ["case", "warp_insts_per_s", "emulation_share", "ptx_peak_rss_mb", "record_buffer_max",
            "sass_warp_insts_per_s", "ptx_vs_sass_rate"]
    table = [[_fmt(r[c]) for c in cols] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)]
    print()
    print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
    for t in table:
        print("  ".join(v.rjust(w) for v, w in zip(t, widths)))


def _sweep_bench(args, overrides: dict) -> int:
    from accelsim.bench.sweep_bench import run_sweep_bench

    rows = run_sweep_bench(quick=args.quick, config=args.config, overrides=overrides,
                           engines=args.engine,
                           progress=None if args.json else
                           lambda n: print(f"running {n} ...", file=sys.stderr))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    cols = ["label", "workers", "points", "wall_s", "points_per_min", "cpu_s_per_point",
            "overhead_wall_s_per_point", "overhead_cpu_s_per_point", "speedup_vs_process_x1"]
    table = [[r["label"]] + [_fmt(r[c]) if not isinstance(r[c], float) or r[c] >= 100
                             else f"{r[c]:.3f}" for c in cols[1:]] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)]
    print("  ".join(c.rjust(w) for c, w in zip(cols, widths)))
    for t in table:
        print("  ".join(v.rjust(w) for v, w in zip(t, widths)))
    return 0
