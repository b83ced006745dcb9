"""Every notebook in notebooks/ runs from top to bottom without an error.

Notebooks are documentation that executes: a new notebook is picked up by
being there. Each runs in its own folder, as a reader would open it.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.fixture
def kernel_sees_our_modules(monkeypatch):
    """The kernel runs in the notebook's folder: make PYTHONPATH entries absolute so it
    imports the same accelsim as the tests."""
    entries = [e for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e]
    if entries:
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(str(Path(e).resolve()) for e in entries))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, kernel_sees_our_modules):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError naming the cell that failed
    errors = [out for cell in notebook.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors


def test_correlation_notebook_simulates_for_real():
    """The correlation walk-through correlates against a run of the simulator,
    not a hand-made table."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(NOTEBOOKS[0].parent / "correlation.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "accelsim.Simulator(config).run(workload)" in code
    assert "stand-in" not in code.lower()
