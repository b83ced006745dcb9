"""Function size and complexity of the C++ core and bindings, measured with
lizard as ruff and mypy check the Python: no function longer than 80 lines or
above cyclomatic complexity 30 anywhere, and none longer than 60 lines outside
the PTX front end (cpp/ptx, whose parser and interpreter hold the long case
analyses). A generated dispatch table is the one kind of exception, and each
is named in GENERATED with the reason."""
from __future__ import annotations

from pathlib import Path

import pytest

lizard = pytest.importorskip("lizard", reason="lizard is in the [test] extra (pip install -e .[test])")

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES, MAX_CCN, MAX_LINES_OUTSIDE_PTX = 80, 30, 60

# (file, function) -> why it may exceed the limits. Only generated dispatch
# tables belong here: code that a macro expands into one case per row.
GENERATED: dict[tuple[str, str], str] = {}


def _functions():
    for folder in ("cpp", "bindings"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".cpp", ".h") or "tests" in path.relative_to(ROOT).parts[:2]:
                continue
            rel = path.relative_to(ROOT).as_posix()
            for f in lizard.analyze_file(str(path)).function_list:
                yield rel, f


def over_limits(functions) -> list[str]:
    """'file:line name (lines, CCN)' for every function over its limits."""
    out = []
    for rel, f in functions:
        key = (rel, f.name)
        if key in GENERATED:
            continue
        max_lines = MAX_LINES if rel.startswith("cpp/ptx/") else MAX_LINES_OUTSIDE_PTX
        lines, ccn = f.length, f.cyclomatic_complexity
        if lines > max_lines or ccn > MAX_CCN:
            out.append(f"{rel}:{f.start_line} {f.name}: {lines} lines (max {max_lines}), "
                       f"complexity {ccn} (max {MAX_CCN})")
    return out


def test_cpp_functions_stay_within_the_limits():
    found = over_limits(_functions())
    assert not found, "functions over the size / complexity limits:\n" + "\n".join(found)


def test_the_check_fails_on_a_long_or_tangled_function(tmp_path):
    body = "\n".join(f"  x += {i};" for i in range(70))
    branches = "\n".join(f"  if (x == {i}) return {i};" for i in range(35))
    src = tmp_path / "long.cpp"
    src.write_text(f"int f(int x) {{\n{body}\n  return x;\n}}\nint g(int x) {{\n{branches}\n  return 0;\n}}\n")
    funcs = [("cpp/sim/long.cpp", f) for f in lizard.analyze_file(str(src)).function_list]
    found = over_limits(funcs)
    assert len(found) == 2 and "f:" in found[0] and "complexity 36" in found[1], found
