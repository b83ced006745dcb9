"""Find the CSV table inside a profiler's output file.

nvprof and Nsight Compute write their CSV to the same stream as the profiled
program and their own ``==PID==`` / ``==PROF==`` messages, so a saved file is
"some text, then a header row, an optional units row, then data rows". This
module finds that table and keeps every row's 1-based line number, so readers
can name the exact line of a bad value.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from accelsim._files import refuse_non_file
from accelsim.errors import ProfileError


@dataclass
class CsvBlock:
    """The table of one profiler file: header, units (or None) and data rows."""

    path: str
    header: list[str]
    header_line: int
    units: list[str] | None = None
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    #: cells left out as impossible, for a warning: (line, column, text)
    dropped: list[tuple[int, str, str]] = field(default_factory=list)

    def column(self, name: str) -> int:
        """Index of a column the reader relies on; a ProfileError if absent."""
        try:
            return self.header.index(name)
        except ValueError:
            raise ProfileError(f"{self.path}:{self.header_line}: missing column {name!r}",
                               self.path, self.header_line, name) from None


def _is_noise(text: str) -> bool:
    # Profiler chatter ("==1234== ...", "==PROF== ...") and blank lines are not data.
    stripped = text.strip()
    return not stripped or stripped.startswith("==")


def _parse(text: str) -> list[str]:
    return next(csv.reader([text]))


def read_block(path: str | Path, is_header) -> CsvBlock:
    """Read ``path`` and return the table whose header satisfies ``is_header``.

    Lines before the header (program output, profiler messages) are skipped; after
    it, profiler messages and blank lines are skipped and every other line must
    have as many fields as the header.
    """
    path = str(path)
    refuse_non_file(path, "profiler export", ProfileError)
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read: {exc.strerror}", path) from None
    start = _find_header(path, lines, is_header)
    block = CsvBlock(path, _parse(lines[start]), start + 1)
    for index in range(start + 1, len(lines)):
        if _is_noise(lines[index]):
            continue
        fields = _parse(lines[index])
        if len(fields) != len(block.header):
            raise ProfileError(
                f"{path}:{index + 1}: {len(fields)} fields where the header has "
                f"{len(block.header)}", path, index + 1, None)
        block.rows.append((index + 1, fields))
    return block


def _find_header(path: str, lines: list[str], is_header) -> int:
    for index, text in enumerate(lines):
        if _is_noise(text) or "," not in text:
            continue
        if is_header(_parse(text)):
            return index
    raise ProfileError(f"{path}: no profiler CSV header found (is this an nvprof --csv or "
                       f"Nsight Compute --csv --page raw export?)", path, None, None)


def split_units(block: CsvBlock, key_column: str) -> CsvBlock:
    """Move a units row (the first row, with an empty ``key_column``) to ``block.units``."""
    key = block.column(key_column)
    if block.rows and block.rows[0][1][key].strip() == "":
        block.units = block.rows.pop(0)[1]
    return block
