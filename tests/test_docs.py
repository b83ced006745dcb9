"""The documentation as a reader finds it: docs/README.md lists every page
once (no orphans, no dead links), and neither the docs nor the code name an
issue number, which a reader of the repository cannot open."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ISSUE = re.compile(r"\b[Ii]ssues? ?(#?\d+|§)|#\d+ acceptance")


def _index_links() -> list[str]:
    return re.findall(r"^\* \[[^\]]+\]\(([^)]+)\)", (DOCS / "README.md").read_text(), re.M)


def test_index_lists_every_page_once():
    links = _index_links()
    pages = sorted(p.name for p in DOCS.glob("*.md") if p.name != "README.md")
    assert sorted(links) == pages, (f"not in docs/README.md: {sorted(set(pages) - set(links))}; "
                                    f"listed but missing: {sorted(set(links) - set(pages))}")
    assert len(links) == len(set(links)), "a page is listed twice"


def test_no_issue_numbers_in_docs_or_code():
    folders = ("docs", "python", "cpp", "bindings", "cudart", "scripts", "tests", "configs")
    files = [ROOT / "README.md"] + [p for f in folders for p in sorted((ROOT / f).rglob("*"))]
    found = []
    for path in files:
        if path.suffix not in (".md", ".py", ".h", ".cpp", ".sh", ".yaml", ".txt", ".def") \
                or path.name == "test_docs.py":
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if ISSUE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "issue numbers a reader cannot open:\n" + "\n".join(found)


def test_the_check_can_fail():
    assert ISSUE.search("see issue 11 §0") and ISSUE.search("Issue #3 acceptance") and ISSUE.search("(issue §3)")
    assert not ISSUE.search("tissue 4") and not ISSUE.search("the issue with 32-bit copies")
