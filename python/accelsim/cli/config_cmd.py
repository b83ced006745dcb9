"""``accelsim config list|show|import``."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    parser = sub.add_parser("config", help="list, show or import GPU configs")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="bundled config names").set_defaults(func=_list)
    show = actions.add_parser("show", help="print a config (YAML with units, or --json)")
    show.add_argument("name", help="bundled name or YAML path")
    show.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                      help="override a value (repeatable)")
    show.add_argument("--json", action="store_true", help="canonical values as JSON")
    show.set_defaults(func=_show)
    imp = actions.add_parser("import", help="convert gpgpusim.config [+ trace.config]")
    imp.add_argument("files", nargs="+", help="option files; later ones win")
    imp.add_argument("-o", "--output", help="write the YAML here instead of stdout")
    imp.set_defaults(func=_import)
    chk = actions.add_parser("check", help="derived peaks beside the card's published figures; "
                                           "ISA coverage; microbenchmark twins against the figures "
                                           "measured on the card (exit status 1 on a problem)")
    chk.add_argument("name", help="bundled name, YAML path, or a reference config folder / "
                                  "gpgpusim.config (imported first)")
    chk.add_argument("--card", help="compare with this card's published figures "
                                    "(configs/published/cards.yaml; default: the config's own)")
    chk.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="override a value (repeatable)")
    chk.add_argument("--no-simulate", action="store_true",
                     help="skip the microbenchmark twins (the derived peaks and ISA coverage only)")
    chk.add_argument("--full", action="store_true",
                     help="bandwidth twins on the whole GPU at full length (slower; default: 1/k of "
                          "the GPU, within about 2 %%)")
    chk.set_defaults(func=_check)


def parse_overrides(pairs: list[str]) -> dict:
    from accelsim.errors import ConfigError

    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ConfigError(f"--set expects KEY=VALUE, got {pair!r}", key=pair)
        out[key.strip()] = value.strip()
    return out


def _list(args) -> int:
    from accelsim.config import list_configs

    for name in list_configs():
        print(name)
    return 0


def _show(args) -> int:
    from accelsim.config import load_config

    cfg = load_config(args.name).with_overrides(parse_overrides(args.set))
    print(json.dumps(cfg.to_dict(), indent=2) if args.json else cfg.to_yaml(), end="")
    return 0


def _import(args) -> int:
    from accelsim.cli import output_file
    from accelsim.config import import_gpgpusim_config

    output_file("-o", args.output)
    cfg = import_gpgpusim_config(*args.files)
    text = cfg.to_yaml()
    if args.output:
        with open(args.output, "w") as out:
            out.write(text)
    else:
        print(text, end="")
    defaults = getattr(cfg, "defaults_applied", [])
    print(f"# {len(defaults)} options absent, GPGPU-Sim's default applied:", file=sys.stderr)
    for option, value in defaults:
        print(f"#   -{option} {value}", file=sys.stderr)
    for option, reason in getattr(cfg, "defaults_not_applied", []):
        print(f"#   -{option} absent, accelsim's default kept: {reason}", file=sys.stderr)
    print(f"# {len(cfg.unmodelled)} options not modelled:", file=sys.stderr)
    for u in cfg.unmodelled:
        print(f"#   {u.path}:{u.line}: -{u.option} {u.value}: {u.reason}", file=sys.stderr)
    return 0


def _check(args) -> int:
    from pathlib import Path

    from accelsim.config import import_gpgpusim_config, load_config
    from accelsim.config.check import check_config

    path = Path(args.name)
    if path.is_dir() and (path / "gpgpusim.config").is_file():
        files = [path / "gpgpusim.config"] + ([path / "trace.config"]
                                              if (path / "trace.config").is_file() else [])
        cfg = import_gpgpusim_config(*files)
    elif path.suffix == ".config" and path.is_file():
        cfg = import_gpgpusim_config(path)
    else:
        cfg = load_config(args.name)
    cfg = cfg.with_overrides(parse_overrides(args.set))
    report = check_config(cfg, card=args.card)
    card = report.card or "no published figures"
    print(f"{report.config} (card: {card}; ISA table {report.isa})")
    print(report.table())
    problems = list(report.problems)
    if not args.no_simulate:
        problems += _fidelity(cfg, args.card, quick=not args.full)
    if not problems:
        print("check passed")
        return 0
    for problem in problems:
        print(f"PROBLEM: {problem}")
    return 1


def _fidelity(cfg, card, quick: bool) -> list[str]:
    """Prints the twins against the measured figures; the figures more than
    10 % off (without a known gap) as problems."""
    from accelsim.microbench import fidelity

    report = fidelity.validate(cfg, card=card, quick=quick)
    figs = report.card
    where = ""
    if figs and figs.measured_on:
        clock = f" at {figs.clock_mhz:g} MHz" if figs.clock_mhz else ""
        where = f"; measured on {figs.measured_on}{clock}"
    print(f"\nMemory system (and ALU, launch) against measurements: simulated twins{where}")
    print(report.table())
    for r in report.rows:
        if r.figure and r.figure.known_gap and r.status == "known gap":
            print(f"  known gap, {r.quantity}: {r.figure.known_gap}")
    return [f"{r.quantity}: simulated {r.simulated:,.1f} {r.unit} is {r.error_pct:+.1f}% off the measured "
            f"{r.measured:,.1f} ({r.figure.source}: {r.figure.where})"
            for r in report.outside(fidelity.TOLERANCE_PCT) if r.figure]
