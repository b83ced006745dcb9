"""Arithmetic over metric names, as written in the metric map.

Map entries are formulas such as ``elapsed_cycles_sm / num_sms`` or
``l1d:global_acc_r.hit + l1d:global_acc_r.sector_miss``. Metric names contain
dots and colons, so names are swapped for placeholders before Python's parser
sees the text, and only numbers, names and + - * / ( ) are allowed: a map file
is data and must not be able to run code.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)|(?P<name>[A-Za-z_][\w.:\[\]]*)"
                    r"|(?P<op>[-+*/()]))")
_ALLOWED = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load,
            ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd)


@dataclass(frozen=True)
class Formula:
    text: str
    names: tuple[str, ...]
    code: object

    def evaluate(self, values):
        """``values[name]`` for every name (scalars or aligned Series); inf becomes NaN."""
        scope = {f"_v{i}": values[name] for i, name in enumerate(self.names)}
        result = eval(self.code, {"__builtins__": {}}, scope)  # noqa: S307 - AST checked
        return result.replace([np.inf, -np.inf], np.nan) if hasattr(result, "replace") \
            else (np.nan if not np.isfinite(result) else result)


def _tokens(text: str):
    position = 0
    while position < len(text.rstrip()):
        match = _TOKEN.match(text, position)
        if not match:
            raise ValueError(f"cannot read formula {text!r} at {text[position:]!r}")
        position = match.end()
        yield match


@lru_cache(maxsize=None)
def compile_formula(text: str) -> Formula:
    """Check and compile one formula; a ValueError says what is wrong with it."""
    names: list[str] = []
    pieces = []
    for token in _tokens(str(text)):
        if token.group("name"):
            name = token.group("name")
            if name not in names:
                names.append(name)
            pieces.append(f"_v{names.index(name)}")
        else:
            pieces.append(token.group("num") or token.group("op"))
    try:
        tree = ast.parse(" ".join(pieces), mode="eval")
    except SyntaxError:
        raise ValueError(f"formula {text!r} is not valid arithmetic") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ValueError(f"formula {text!r}: only + - * / ( ), numbers and names allowed")
    return Formula(str(text), tuple(names), compile(tree, "<metric map>", "eval"))
