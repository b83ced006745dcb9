"""``accelsim tune collect|import|config|list|ptx``: the hardware side of the
microbenchmark suite and the tuner (docs/tuning.md)."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    parser = sub.add_parser("tune", help="run the microbenchmark suite on a GPU and tune a config to it")
    tsub = parser.add_subparsers(dest="tune_command", required=True, metavar="ACTION")

    p = tsub.add_parser("collect", help="run the suite on this machine's GPU (needs accelsim[cuda])")
    p.add_argument("--out", required=True, help="hardware profile JSON to write")
    p.add_argument("--only", default=None, help="comma-separated benchmarks (default: all)")
    p.add_argument("--l1-bytes", type=int, default=32 * 1024,
                   help="L1 size the L1 benchmarks are sized for (not a device attribute; default 32768)")
    p.set_defaults(func=_collect)

    p = tsub.add_parser("import", help="the reference suite's text output -> hardware profile JSON")
    p.add_argument("output", help="the reference suite's output file")
    p.add_argument("--out", required=True, help="hardware profile JSON to write")
    p.set_defaults(func=_import)

    p = tsub.add_parser("config", help="tune a base config to a hardware profile and a spec")
    p.add_argument("--hw", required=True, help="hardware profile JSON (or the reference suite's output)")
    p.add_argument("--spec", required=True, help="the GPU's public spec (YAML path or bundled name)")
    p.add_argument("--base", default="QV100", help="config to start from (default QV100)")
    p.add_argument("-o", "--out", required=True, help="tuned config YAML to write")
    p.add_argument("--report", default=None, metavar="DIR",
                   help="write report.html and the tables as CSV (benchmarks, fits, search, provenance) here")
    p.add_argument("--search", default=None,
                   help="'none' to skip the search, or PARAM=V1,V2;PARAM2 (no values: from its declaration)")
    p.add_argument("--engine", default="process", choices=["process", "serial", "dask"])
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--max-cycles", type=int, default=None, help="cycle budget of every simulation")
    p.add_argument("--generic", action="store_true",
                   help="reset the base's latency/bandwidth parameters to generic values first")
    p.set_defaults(func=_config)

    p = tsub.add_parser("list", help="the suite's benchmarks")
    p.set_defaults(func=_list)

    from accelsim.cli import LazyChoices

    p = tsub.add_parser("ptx", help="compile one benchmark to PTX (nvcc or NVRTC) and print it")
    p.add_argument("name", choices=LazyChoices(_suite_names), metavar="NAME")
    p.add_argument("--config", default="TITANV", help="config whose sizes the defines take")
    p.add_argument("--arch", default="compute_75")
    p.set_defaults(func=_ptx)


def _suite_names() -> list[str]:
    from accelsim.microbench.suite import hardware_names

    return hardware_names()


def _collect(args) -> int:
    from accelsim.cli import output_file

    output_file("--out", args.out)
    from accelsim.tune import collect

    only = [n.strip() for n in args.only.split(",")] if args.only else None
    profile = collect(only, l1_bytes=args.l1_bytes,
                      progress=lambda name: print(f"running {name}", file=sys.stderr))
    profile.save(args.out)
    print(f"wrote {args.out}: {len(profile.measurements)} measurements on {profile.device.get('name')}")
    return 0


def _import(args) -> int:
    from accelsim.cli import output_file

    output_file("--out", args.out)
    from accelsim.tune import import_reference

    profile = import_reference(args.output)
    profile.save(args.out)
    print(f"wrote {args.out}: {len(profile.measurements)} measurements on {profile.device.get('name')}")
    return 0


def parse_search(text: str | None):
    if text is None:
        return None
    if text.strip().lower() == "none":
        return {}
    from accelsim.errors import ConfigError

    grid = {}
    for item in filter(None, (s.strip() for s in text.split(";"))):
        key, _, values = item.partition("=")
        grid[key.strip()] = [_scalar(v) for v in values.split(",")] if values.strip() else None
    if not grid:  # (an empty variable in a script, not a wish to skip the search)
        raise ConfigError(f"--search {text!r} names no parameter; give PARAM=V1,V2;PARAM2, "
                          "or 'none' to skip the search", key="search")
    return grid


def _scalar(text: str):
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def _config(args) -> int:
    from accelsim.cli import output_file, output_folder
    from accelsim.tune import fit, generic_base, write_config

    output_file("-o", args.out)
    output_folder("--report", args.report)
    base = generic_base(args.base) if args.generic else args.base
    config, report = fit(args.hw, args.spec, base=base, search=parse_search(args.search),
                         engine=args.engine, workers=args.workers, max_cycles=args.max_cycles,
                         progress=lambda text: print(text, file=sys.stderr))
    write_config(config, args.out, base_name=report.base_name,
                 description=f"tuned by accelsim tune config from {args.hw}")
    if args.report:
        report.save(args.report)
    b = report.benchmarks
    print(f"{'benchmark':<16} {'hw':>10} {'before':>10} {'after':>10} {'error':>8}  unit")
    for r in b.itertuples():
        mark = "" if r.modelled else "  (not modelled)"
        print(f"{r.benchmark:<16} {r.hw:10.4g} {r.before:10.4g} {r.after:10.4g} "
              f"{r.error_after_pct:+7.1f}%  {r.unit}{mark}")
    if report.search is not None and len(report.search):
        print(f"search picked {json.dumps(report.search_choice, default=str)}")
    print(f"wrote {args.out}")
    return 0


def _list(args) -> int:
    from accelsim.tune import SUITE

    for b in SUITE.values():
        twin = "twin" if b.has_twin else "    "
        print(f"{b.name:<20} {b.unit:<12} {twin}  {b.description}")
    return 0


def _ptx(args) -> int:
    from accelsim import load_config
    from accelsim.microbench import HardwareDef
    from accelsim.tune import SUITE, to_ptx
    from accelsim.microbench.suite import facts_from_hwdef

    facts = facts_from_hwdef(HardwareDef.from_config(load_config(args.config)))
    sys.stdout.write(to_ptx(SUITE[args.name], facts, args.arch))
    return 0
