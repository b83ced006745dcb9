"""``accelsim sweep SPEC.yaml [--engine process|dask|serial] [--workers N] [--out DIR]
[--no-resume] [--no-progress] [--csv FILE]``: run a parameter sweep (see
``accelsim.sweep.spec`` for the spec file). Ctrl-C stops it; the same command
again resumes it."""
from __future__ import annotations

import sys


def register(sub) -> None:
    parser = sub.add_parser("sweep", help="simulate workloads over a grid of config parameters")
    parser.add_argument("spec", help="sweep spec (YAML: workloads, config, grid or points, "
                                     "kernels, max_cycles, out)")
    parser.add_argument("--engine", choices=("process", "dask", "serial"), default="process",
                        help="where runs execute (default: a local process pool)")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: usable cores)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="results directory (default: the spec's 'out', else SPEC.sweep/ "
                             "beside the spec)")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard stored results in DIR and start over")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV")
    parser.set_defaults(func=_sweep)


def _sweep(args) -> int:
    from pathlib import Path

    from accelsim.sweep import sweep
    from accelsim.sweep.spec import load_spec

    from accelsim.cli import output_file, output_folder

    spec = load_spec(args.spec)
    out = args.out or spec.pop("out", None) or str(Path(args.spec).with_suffix(".sweep"))
    spec.pop("out", None)
    output_folder("--out" if args.out else "the spec's out", str(out))
    output_file("--csv", args.csv)
    try:
        table = sweep(**spec, out=out, engine=args.engine, workers=args.workers,
                      resume=not args.no_resume, progress=False if args.no_progress else None)
    except KeyboardInterrupt:
        print(f"\naccelsim sweep: interrupted; finished runs are stored in {out}; "
              "run the same command again to resume", file=sys.stderr)
        return 130
    if args.csv:
        table.to_csv(args.csv, index=False)
    _summary(table)
    errors = table.attrs.get("errors", 0)
    redone = table.attrs.get("recomputed_unverified", 0)
    redone_text = f", {redone} recomputed (their stored files failed verification)" if redone else ""
    print(f"{table.attrs['points']} points, {errors} failed runs{redone_text}; results in {out}")
    return 1 if errors else 0


def _summary(table) -> None:
    """Total cycles per point (rows) and workload (columns); failed runs show 'error'."""
    import pandas as pd

    if table.empty:
        return
    params = table.attrs.get("params", [])
    keys = ["point", *params]
    ok = table[table["status"] == "ok"]
    cycles = ok.groupby(keys + ["workload"])["cycles"].sum().unstack("workload")
    cycles = cycles[[w for w in table["workload"].unique() if w in cycles]]  # spec's order
    failed = table[table["status"] == "error"][keys + ["workload"]].drop_duplicates()
    grid = table[keys].drop_duplicates().set_index(keys)
    cycles = grid.join(cycles) if not cycles.empty else grid
    cycles = cycles.astype(object)
    for row in failed.itertuples(index=False):
        cycles.loc[tuple(row[:-1]), row[-1]] = "error"
    with pd.option_context("display.max_rows", 200, "display.width", 160):
        print("total cycles per point and workload:")
        print(cycles.to_string())
    for row in table[table["status"] == "error"].itertuples():
        print(f"point {row.point} on {row.workload}: {str(row.error).splitlines()[-1]}",
              file=sys.stderr)
