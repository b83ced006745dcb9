"""Reading a user's YAML file (configs, sweep specs, tuning specs, metric
maps): one loader for all of them.

* libyaml's C loader (``yaml.CSafeLoader``) when PyYAML was built with it: a
  config loads ~10x faster than with the pure-Python one (docs/reliability.md
  has the fuzz rates); both keep the line numbers errors cite.
* Nesting is bounded before the document is composed: the composers recurse
  once per level, so a 5,000-deep document is a RecursionError in Python and a
  C stack overflow in libyaml. No accelsim file nests more than a few levels.
* Aliases are bounded after it is composed: one that refers to a collection
  containing it makes a cycle, and a few lines of aliases of aliases can stand
  for billions of values, which any later ``repr`` or walk would expand.
* Not a regular file (``/dev/zero``, a folder, a named pipe), unreadable, not
  UTF-8 or not YAML: a ConfigError naming the file (and the line, where known).
"""
from __future__ import annotations

from pathlib import Path

import yaml

from accelsim._files import refuse_non_file
from accelsim.errors import ConfigError

#: Deepest nesting of mappings and lists accepted (a config uses three levels).
MAX_DEPTH = 100
_TOO_DEEP = (f"nested more than {MAX_DEPTH} levels deep (lists and mappings inside each other); "
             "accelsim files nest a few levels")
#: Most values a document may stand for once its aliases are expanded.
MAX_VALUES = 100_000

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def loader_name() -> str:
    """'libyaml' or 'pure-Python': which parser reads YAML here."""
    return "libyaml" if _LOADER is not yaml.SafeLoader else "pure-Python"


def _check_depth(text: str, where: str) -> bool:
    """Refuse nesting deeper than MAX_DEPTH. True when the document needs the
    alias check: it has an alias, or more nodes than MAX_VALUES on its own."""
    depth = nodes = 0
    aliases = False
    for event in yaml.parse(text, Loader=_LOADER):  # events: no recursion
        if isinstance(event, _OPEN):
            nodes += 1
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else None
                raise ConfigError(f"{where}:{line}: {_TOO_DEEP}", path=where, line=line)
        elif isinstance(event, _CLOSE):
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
        elif isinstance(event, yaml.AliasEvent):
            aliases = True
    return aliases or nodes > MAX_VALUES


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _line(node) -> int | None:
    return node.start_mark.line + 1 if node.start_mark else None


def _check_aliases(root, where: str) -> None:
    """Refuse a cycle of aliases, or more than MAX_VALUES values once they are
    expanded (sizes counted per node, each shared node once: no expansion here;
    iterative, so no recursion either)."""
    size: dict[int, int] = {}
    path: set[int] = set()  # the nodes entered and not finished: the current path
    stack = [(root, False)]
    while stack:
        node, finished = stack.pop()
        if finished:
            path.discard(id(node))
            size[id(node)] = total = 1 + sum(size[id(c)] for c in _children(node))
            if total > MAX_VALUES:
                raise ConfigError(f"{where}:{_line(node)}: its aliases expand to more than "
                                  f"{MAX_VALUES:,} values", path=where, line=_line(node))
            continue
        if id(node) in size:
            continue
        path.add(id(node))
        stack.append((node, True))
        for child in _children(node):
            if id(child) in path:
                raise ConfigError(f"{where}:{_line(child)}: an alias refers to a list or mapping "
                                  "that contains it", path=where, line=_line(child))
            if id(child) not in size:
                stack.append((child, False))


def parse_yaml(text: str, where: str):
    """(node, data) of one YAML document: the composed node (for line numbers;
    None for an empty document) and the loaded data."""
    try:
        shared = _check_depth(text, where)
        loader = _LOADER(text)
        try:
            node = loader.get_single_node()
            if node is not None and shared:  # without aliases: a tree, no larger than its text
                _check_aliases(node, where)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        if line is None and isinstance(getattr(exc, "position", None), int):  # a reader error
            line = text.count("\n", 0, exc.position) + 1  # type: ignore[attr-defined]
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        at = f"{where}:{line}" if line else where
        if "maximum nesting depth" in str(problem):  # newer libyaml's own limit, met before ours
            raise ConfigError(f"{at}: {_TOO_DEEP}", path=where, line=line) from None
        raise ConfigError(f"{at}: not valid YAML: {problem}", path=where, line=line) from None
    return node, data


def read_yaml_document(path: Path, what: str = "file"):
    """(node, data) of a YAML file (see ``parse_yaml``)."""
    path = Path(path)
    refuse_non_file(path, what, ConfigError)  # (a missing file: the OSError below)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a YAML text file (byte {exc.start} is not UTF-8)",
                          path=str(path)) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the {what}: {exc.strerror}", path=str(path)) from None
    return parse_yaml(text, str(path))
