"""``accelsim microbench NAME|all|list --config NAME [--json]``: simulate the
classic GPU microbenchmarks and compare with the real GPU where known."""
from __future__ import annotations

import json


def _names() -> list[str]:
    from accelsim.microbench import names

    return names()


def register(sub) -> None:
    from accelsim.cli import LazyChoices

    parser = sub.add_parser("microbench", help="simulate GPU microbenchmarks (latency, bandwidth, FLOPS)")
    parser.add_argument("name", choices=LazyChoices(_names, "all", "list"), metavar="NAME",
                        help="a benchmark, 'all', or 'list' to print the benchmarks")
    parser.add_argument("--config", default="TITANV", help="GPU config name or YAML path (default TITANV)")
    parser.add_argument("--reps", type=int, default=None,
                        help="timed repetitions of the shorter run (the longer has twice as many)")
    parser.add_argument("--keep-traces", metavar="DIR", default=None, help="write the traces here")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=_run)


def table(measurements) -> list[str]:
    lines = [f"{'benchmark':<16} {'simulated':>10} {'hardware':>10} {'error':>8}  unit"]
    for m in measurements:
        hw = f"{m.hw_value:10.1f}" if m.hw_value is not None else f"{'-':>10}"
        err = f"{m.error_pct:+7.1f}%" if m.error_pct is not None else f"{'-':>8}"
        lines.append(f"{m.name:<16} {m.value:10.1f} {hw} {err}  {m.unit}")
    return lines


def _run(args) -> int:
    from accelsim import load_config
    from accelsim.microbench import BENCHMARKS, names, run

    if args.name == "list":
        for name in names():
            b = BENCHMARKS[name]
            print(f"{name:<16} {b.unit:<12} {b.description}")
        return 0
    from accelsim.cli import output_folder

    output_folder("--keep-traces", args.keep_traces)
    config = load_config(args.config)
    chosen = names() if args.name == "all" else [args.name]
    results = [run(n, config, reps=args.reps, trace_dir=args.keep_traces) for n in chosen]
    if args.json:
        out = [m.to_dict() for m in results]
        print(json.dumps(out if args.name == "all" else out[0], indent=2))
    else:
        print(f"config: {config.name}")
        print("\n".join(table(results)))
    return 0
