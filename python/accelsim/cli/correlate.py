"""``accelsim correlate``: compare profiler exports with simulator results.

    accelsim correlate --hw nsight.csv --sim results/run1 --out report/
    accelsim correlate --hw rodinia/bfs=bfs.csv --sim rodinia/bfs=runs/bfs --out report/

``NAME=PATH`` names the workload (``suite/name`` puts it in a suite); without a
name the file stem or folder name is used.
"""
from __future__ import annotations

import argparse
from pathlib import Path


def _named(items: list[str]) -> dict[str, list[str]]:
    """['a=x.csv', 'y.csv'] -> {'a': ['x.csv'], 'y': ['y.csv']} (several paths may share a name)."""
    named: dict[str, list[str]] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or Path(item).exists():
            name, path = Path(item).stem if Path(item).is_file() else Path(item).name, item
        named.setdefault(name, []).append(path)
    return named


def _run(args: argparse.Namespace) -> int:
    from accelsim.cli import output_folder
    from accelsim.correlation import correlate

    output_folder("--out", args.out)
    named = _named(args.sim)
    for name, paths in named.items():
        if len(paths) > 1:  # one run per workload: launches would collide
            raise SystemExit(f"accelsim correlate: error: --sim names workload {name!r} twice")
    sims = {name: paths[0] for name, paths in named.items()}
    corr = correlate(_named(args.hw), sims, launches=args.launches, num_sms=args.num_sms,
                     metric_map=args.map, n_outliers=args.outliers)
    index = corr.report(args.out)
    print(corr.summary.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    if not corr.unmatched.empty:
        print(f"{len(corr.unmatched)} kernel launch(es) unmatched: see "
              f"{Path(args.out) / 'tables' / 'unmatched.csv'}")
    print(f"report: {index}")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "correlate", help="compare hardware profiler exports with simulator results",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hw", nargs="+", required=True, metavar="[NAME=]PROFILE.csv",
                        help="nvprof --csv or Nsight Compute --csv --page raw export(s)")
    parser.add_argument("--sim", nargs="+", required=True, metavar="[NAME=]RESULT_DIR",
                        help="saved simulator result folder(s) (tidy.csv or tidy.parquet)")
    parser.add_argument("--out", required=True, metavar="REPORT_DIR",
                        help="folder for tables/*.csv, plots/*.png and index.html")
    parser.add_argument("--launches", choices=["separate", "mean"], default="separate",
                        help="pair launches one by one, or average each kernel's launches")
    parser.add_argument("--num-sms", type=float, default=None,
                        help="GPU SM count where the profile lacks it (nvprof)")
    parser.add_argument("--map", default=None, help="metric map YAML (default: bundled)")
    parser.add_argument("--outliers", type=int, default=10, help="outliers to list")
    parser.set_defaults(func=_run)
