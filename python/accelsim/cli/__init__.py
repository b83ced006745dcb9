"""The ``accelsim`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func``; modules are
discovered, so a new command is a new file. Errors from accelsim become a
one-line message on stderr and exit status 1.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from accelsim.errors import AccelsimError


def _module_for(command: str) -> str:
    """The module of a command by the naming rule (``trace-info`` ->
    ``trace_info``, ``config`` -> ``config_cmd``)."""
    return command.replace("-", "_")


def _command_modules() -> list[str]:
    """The command modules: this package's public .py files. (A folder listing,
    not pkgutil.iter_modules, which imports inspect: a tenth of start-up.)"""
    return sorted(f[:-3] for d in __path__ for f in os.listdir(d)
                  if f.endswith(".py") and not f.startswith("_"))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone when its module is
    found by name: start-up then imports only what that command uses."""
    parser = argparse.ArgumentParser(prog="accelsim",
                                     description="Cycle-level NVIDIA GPU performance simulator")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = _command_modules()
    if command is not None:
        wanted = [n for n in names if n in (_module_for(command), _module_for(command) + "_cmd")]
        names = wanted or names
    for name in names:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from accelsim import _warnings

    _warnings.install()  # one line per warning (also when this module is run on its own)
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv and not argv[0].startswith("-") else None
    args = build_parser(command).parse_args(argv)
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
    except OSError as exc:  # any other file-system error: one line, not a traceback
        print(f"accelsim {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1


def _one_line(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


def output_folder(option: str, path: str | None) -> None:
    """Refuse an output folder that is an existing file, before any work is done."""
    from pathlib import Path

    if path is not None and Path(path).exists() and not Path(path).is_dir():
        raise AccelsimError(f"{option} {path}: exists and is not a folder")


def output_file(option: str, path: str | None) -> None:
    """Refuse an output file that is a folder, or whose folder does not exist
    or cannot be written, before any work is done (``/dev/null`` is fine)."""
    import os
    from pathlib import Path

    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise AccelsimError(f"{option} {path}: is a folder; give a file name")
    folder = target.parent
    if not folder.is_dir():
        raise AccelsimError(f"{option} {path}: the folder {str(folder)!r} does not exist")
    if not target.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise AccelsimError(f"{option} {path}: cannot create a file in {str(folder)!r} "
                            "(permission denied)")


class LazyChoices:
    """argparse ``choices`` computed on first use: ``names`` imports what
    knows them (the microbenchmark registry, the tuning suite) only when a
    value is checked or listed, not when ``accelsim --help`` builds every
    command's parser."""

    def __init__(self, names, *extra: str):
        self._names = names
        self._extra = extra
        self._list: list[str] | None = None

    def _all(self) -> list[str]:
        if self._list is None:
            self._list = [*self._names(), *self._extra]
        return self._list

    def __contains__(self, value) -> bool:
        return value in self._all()

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

