"""The lint and type-check configured in pyproject.toml pass, and
the typed stubs of the C++ extension match the built module."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import warnings

import pytest

from conftest import REPO

import accelsim
from accelsim import _core

STUB = REPO / "python" / "accelsim" / "_core.pyi"


def _tool(name: str) -> list[str]:
    if shutil.which(name) is None:
        try:
            __import__(name)
        except ImportError:
            pytest.fail(f"{name} is required for the lint/type tests (pip install '.[test]')")
        return [sys.executable, "-m", name]
    return [name]


def test_ruff_finds_nothing():
    out = subprocess.run([*_tool("ruff"), "check", "python", "tests"], cwd=REPO,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_mypy_finds_nothing():
    out = subprocess.run([*_tool("mypy")], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def _stub_names() -> dict[str, set[str]]:
    """Top-level names of the stub -> the members declared for classes."""
    tree = ast.parse(STUB.read_text())
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef) and node.name != "__getattr__":
            out[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = set()
    return out


def test_every_stub_name_exists_in_the_extension():
    for name, members in _stub_names().items():
        assert hasattr(_core, name), f"_core.pyi declares {name}, the extension has none"
        for member in members - {"__init__"}:
            assert hasattr(getattr(_core, name), member), f"_core.pyi: {name}.{member} missing"


def test_extension_names_missing_from_the_stub_are_reported():
    declared = _stub_names()
    missing = sorted(n for n in dir(_core) if not n.startswith("_") and n not in declared)
    if missing:  # read as Any through the stub's __getattr__ until declared
        warnings.warn(f"_core.pyi does not declare {missing}", UserWarning, stacklevel=1)


def test_py_typed_ships_beside_the_package():
    package = REPO / "python" / "accelsim"
    assert (package / "py.typed").is_file() and STUB.is_file()
    assert accelsim.__file__ is not None
