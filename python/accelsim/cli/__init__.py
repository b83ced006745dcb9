"""The ``accelsim`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func``; modules are
discovered, so a new command is a new file. Errors from accelsim become a
one-line message on stderr and exit status 1.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from accelsim.errors import AccelsimError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="accelsim",
                                     description="Cycle-level NVIDIA GPU performance simulator")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (AccelsimError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"accelsim {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C outside a run (a run reports its own line)
        print(f"accelsim {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into e.g. `head`, which closed early: not an error of ours.
        sys.stderr.close()
        return 0
