"""Every notebook in notebooks/ runs from top to bottom without an error.

Notebooks are documentation that executes: a new notebook is picked up by
being there. Each runs in its own folder, as a reader would open it.
"""
from __future__ import annotations

import os
import sys
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
    outputs = [out for cell in notebook.cells if cell.cell_type == "code"
               for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out.get("output_type") == "error"]
    if _draws(notebook):  # a figure made is a figure the reader sees, inline
        assert any("image/png" in out.get("data", {}) for out in outputs), \
            f"{path.name} draws a figure but the executed notebook shows none"


def _draws(notebook) -> bool:
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    return any(call in code for call in ("plt.subplots(", "plt.figure(", "accelsim.plot."))


def test_notebook_runner_is_in_an_extra():
    """What runs the notebooks (the runner this file uses) installs with an
    extra a reader can name: accelsim[notebooks]; the test extra has it too."""
    toml = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    extras = toml.loads((NOTEBOOKS[0].parents[1] / "pyproject.toml").read_text())[
        "project"]["optional-dependencies"]
    names = {"nbclient", "nbformat", "ipykernel"}

    def bare(requirement: str) -> str:
        return requirement.split(">")[0].split("=")[0].split("[")[0].strip()

    assert names <= {bare(r) for r in extras["notebooks"]}
    assert names <= {bare(r) for r in extras["test"]}


def test_correlation_notebook_simulates_for_real():
    """The correlation walk-through correlates against a run of the simulator,
    not a hand-made table."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(NOTEBOOKS[0].parent / "correlation.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "accelsim.Simulator(config).run(workload)" in code
    assert "stand-in" not in code.lower()
