"""A study's generated table replaces only its own section of a doc page."""
from __future__ import annotations

import pytest

from accelsim.studies.doc_section import print_or_write

BEGIN, END = "<!-- t:begin -->", "<!-- t:end -->"


def test_the_table_replaces_its_section_and_nothing_else(tmp_path):
    doc = tmp_path / "page.md"
    doc.write_text(f"intro\n{BEGIN}\nold\n{END}\nafter\n")
    assert print_or_write(f"{BEGIN}\nnew\n{END}", str(doc), BEGIN, END) == 0
    assert doc.read_text() == f"intro\n{BEGIN}\nnew\n{END}\nafter\n"


def test_a_page_without_the_markers_is_refused_and_left_alone(tmp_path):
    doc = tmp_path / "page.md"
    doc.write_text("no markers\n")
    with pytest.raises(SystemExit, match="no <!-- t:begin -->"):
        print_or_write(f"{BEGIN}\nnew\n{END}", str(doc), BEGIN, END)
    assert doc.read_text() == "no markers\n"


def test_without_a_page_the_table_is_printed(capsys):
    assert print_or_write("table", None, BEGIN, END) == 0
    assert capsys.readouterr().out == "table\n"
