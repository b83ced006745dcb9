"""Reading the ``-option value`` files of GPGPU-Sim / Accel-Sim
(``gpgpusim.config``, ``trace.config``): comments, quoted values that span
lines, options repeated (the later wins)."""
from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from pathlib import Path

from accelsim._files import refuse_non_file
from accelsim.errors import ConfigError


@dataclass(frozen=True)
class Option:
    name: str    # without the leading '-'
    value: str
    path: str
    line: int

    def error(self, message: str) -> ConfigError:
        return ConfigError(f"{self.path}:{self.line}: option -{self.name} {self.value!r}: "
                           f"{message}", key=self.name, path=self.path, line=self.line)

    def int(self, text: str | None = None) -> int:
        text = self.value if text is None else text
        try:
            return int(float(text)) if "." in text else int(text, 0)
        except ValueError:
            raise self.error(f"expected an integer, got {text!r}") from None

    def float(self, text: str | None = None) -> float:
        text = self.value if text is None else text
        try:
            return float(text)
        except ValueError:
            raise self.error(f"expected a number, got {text!r}") from None

    def ints(self, sep: str = ",") -> list[builtins.int]:
        return [self.int(t) for t in self.value.split(sep) if t.strip()]


# One lexeme per match: a token (runs of plain characters and quoted spans,
# an unterminated quote running to the end of the text), a comment, or
# whitespace. Matching whole runs keeps the reader linear in C, not per character.
_LEXEME = re.compile(r'(?:[^\s#"]+|"[^"]*(?:"|\Z))+|#[^\n]*|\s+')


def _tokens(text: str, path: str):
    """(token, line) pairs. Quoted text may span lines; whitespace inside quotes
    is dropped because the only multi-line values are colon lists."""
    line = 1
    for match in _LEXEME.finditer(text):
        lexeme = match.group()
        first = lexeme[0]
        if first == "#":
            continue
        if first.isspace():
            line += lexeme.count("\n")
        elif '"' not in lexeme:
            yield lexeme, line
        else:
            start = line
            pieces = lexeme.split('"')  # even positions plain, odd positions quoted
            if len(pieces) % 2 == 0:
                raise ConfigError(f"{path}:{start}: unterminated quote", path=path, line=start)
            line += lexeme.count("\n")
            yield "".join(p if i % 2 == 0 else "".join(p.split())
                          for i, p in enumerate(pieces)), start


def _is_option(token: str) -> bool:
    return len(token) > 1 and token[0] == "-" and (token[1].isalpha() or token[1] == "_")


def read_options(path) -> list[Option]:
    """All options of one file, in order (repeats kept; callers take the last)."""
    path = str(path)
    refuse_non_file(path, "GPGPU-Sim config file", ConfigError)
    try:
        text = Path(path).read_text(errors="replace")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}", path=path) from None
    options: list[Option] = []
    name: str | None = None
    values: list[str] = []
    line = 0
    for token, tok_line in _tokens(text, path):
        if _is_option(token):
            if name is not None:
                options.append(_finish(name, values, path, line))
            name, values, line = token[1:], [], tok_line
        elif name is None:
            raise ConfigError(f"{path}:{tok_line}: value {token!r} before any -option",
                              path=path, line=tok_line)
        else:
            values.append(token)
    if name is not None:
        options.append(_finish(name, values, path, line))
    return options


def _finish(name: str, values: list[str], path: str, line: int) -> Option:
    if not values:
        raise ConfigError(f"{path}:{line}: option -{name} has no value", key=name, path=path,
                          line=line)
    return Option(name, " ".join(values), path, line)
