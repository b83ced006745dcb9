"""Where a study's table goes: printed, or written between its markers in a doc page."""
from __future__ import annotations

import re
from pathlib import Path


def print_or_write(text: str, doc: str | None, begin: str, end: str) -> int:
    """Print ``text``, or replace what lies between ``begin`` and ``end`` in
    ``doc`` with it (``text`` holds the markers). A page without the markers
    is refused rather than appended to: the table's place is the author's."""
    if not doc:
        print(text)
        return 0
    path = Path(doc)
    old = path.read_text()
    pattern = re.escape(begin) + ".*?" + re.escape(end)
    if not re.search(pattern, old, flags=re.S):
        raise SystemExit(f"{path}: no {begin} ... {end} section")
    path.write_text(re.sub(pattern, lambda _: text, old, flags=re.S))
    return 0
