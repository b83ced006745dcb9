"""The Python package's layering rule (docs/design.md, "Python layers"), as the
C++ build enforces its own: every import inside ``python/accelsim`` -- at
module level, inside a function or under ``TYPE_CHECKING`` -- goes to the
importer's own room or to a room listed before it in ``ROOMS``. A room is a
top-level module or subpackage of ``accelsim``; the package's ``__init__`` (the
facade that re-exports the public names) is the room ``accelsim``, in the top
layer: only the command line and the developer tools may import from it.
A room not in the table fails too, so a new one must be placed."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "accelsim"

# (layer, rooms in order); a room may import the rooms before it, and itself.
LAYERS = [
    ("base", ["errors", "_warnings", "_paths", "_files", "_yaml", "_yaml_cache", "_core", "_headless", "progress",
              "run_loop", "_args", "kernel_selection", "workload_check", "run_modes"]),
    ("data", ["trace", "config", "stats", "tracegen"]),
    ("simulation", ["sim", "ptx", "cuda"]),
    ("analyses and tools", ["correlation", "plot", "sweep", "sampling", "microbench", "tune", "studies", "bench"]),
    ("interface", ["accelsim", "cli", "devtools", "__main__"]),
]
ROOMS = [room for _, rooms in LAYERS for room in rooms]


def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _room(module: str, package: Path) -> str:
    """accelsim.x.y -> x; the package itself -> 'accelsim'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "accelsim"


def _targets(node: ast.AST, module: str, is_package: bool, package: Path) -> list[str]:
    """The accelsim modules (or facade names) an import statement reaches."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:  # relative: resolve against the importing module's package
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source != "accelsim":
        return [source]
    # `from accelsim import x`: a room when x is a module of the package, the facade otherwise
    out = []
    for alias in node.names:
        is_module = (package / f"{alias.name}.py").is_file() or (package / alias.name).is_dir() \
            or alias.name == "_core"
        out.append(f"accelsim.{alias.name}" if is_module else "accelsim")
    return out


def violations(package: Path, rooms: list[str]) -> list[str]:
    """'file:line: room -> room' for every import that is not downward."""
    order = {room: i for i, room in enumerate(rooms)}
    out = []
    for path in sorted(package.rglob("*.py")):
        module = _module_name(path, package)
        src = _room(module, package)
        rel = path.relative_to(package.parent)
        if src not in order:
            out.append(f"{rel}: room '{src}' is not in the layer table")
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _targets(node, module, path.name == "__init__.py", package):
                if target != "accelsim" and not target.startswith("accelsim."):
                    continue
                dst = _room(target, package)
                if dst == src:
                    continue
                if dst not in order:
                    out.append(f"{rel}:{node.lineno}: imports '{target}', a room not in the layer table")
                elif order[dst] > order[src]:
                    out.append(f"{rel}:{node.lineno}: {src} -> {dst} ({target}) imports upward")
    return out


def test_no_upward_import_in_the_package():
    found = violations(PACKAGE, ROOMS)
    assert not found, "imports against the layer table (docs/design.md):\n" + "\n".join(found)


def test_every_room_of_the_package_is_in_the_table():
    present = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir()
               if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()}
    present |= {"_core", "accelsim"}
    assert present == set(ROOMS), f"missing from the table: {sorted(present - set(ROOMS))}; " \
                                  f"listed but absent: {sorted(set(ROOMS) - present)}"


def test_the_design_doc_shows_the_same_table():
    doc = (ROOT / "docs" / "design.md").read_text()
    section = doc[doc.index("### Python layers"):]
    rows = re.findall(r"^\| *([a-z ]+?) *\| *(`[^|]*?) *\|", section, re.M)
    listed = [(layer, re.findall(r"`([\w.]+)`", rooms)) for layer, rooms in rows]
    assert listed == LAYERS


def _fake_package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "accelsim"
    for name, text in {"__init__.py": "", "trace/__init__.py": "", "sim.py": "", **files}.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    return pkg


@pytest.mark.parametrize("text", [
    "from accelsim.sim import Simulator\n",                          # module level
    "def f():\n    import accelsim.sim\n",                           # inside a function
    "def f():\n    from accelsim import sim\n",                      # a room named from the package
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..sim import X\n",  # relative
    "import accelsim\n",                                              # the facade, from below it
])
def test_an_upward_import_fails(tmp_path, text):
    pkg = _fake_package(tmp_path, {"trace/reader.py": text})
    found = violations(pkg, ["trace", "sim", "accelsim"])
    assert len(found) == 1 and "trace -> " in found[0] and "imports upward" in found[0], found


def test_a_downward_import_passes_and_an_unplaced_room_fails(tmp_path):
    pkg = _fake_package(tmp_path, {"sim.py": "from accelsim.trace import reader\n", "trace/reader.py": "",
                                   "newroom.py": ""})
    found = violations(pkg, ["trace", "sim", "accelsim"])
    assert found == ["accelsim/newroom.py: room 'newroom' is not in the layer table"]
