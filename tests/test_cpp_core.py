"""Builds the core and its C++ behaviour tests with plain CMake (no Python in
the build) and runs them: the C++ suite is part of the one test command.

Each C++ test case is its own pytest item (names read from the test sources,
checked against the binary's ``--list``), and the build reports its progress
on the terminal while it compiles instead of staying silent for minutes."""
from __future__ import annotations

import re
import shutil
import subprocess
import time

import pytest

from conftest import REPO

_CASE = re.compile(r'TEST_CASE\("([^"]+)"\)')


def _case_names() -> list[str]:
    names = []
    for source in sorted((REPO / "cpp" / "tests").glob("*.cpp")):
        names += _CASE.findall(source.read_text())
    return names


CASES = _case_names()


def _say(config, text: str) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(text)


def _build(config, cmake: str, build) -> None:
    """cmake --build, echoing ninja/make's [done/total] counter every ~10%."""
    proc = subprocess.Popen([cmake, "--build", str(build), "-j", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    tail, shown, start = [], -1, time.monotonic()
    for line in proc.stdout:
        tail = (tail + [line])[-60:]
        step = re.match(r"\s*\[\s*(\d+)\s*/\s*(\d+)\]", line)
        if step:
            done, total = int(step.group(1)), int(step.group(2))
            decile = 10 * done // max(total, 1)
            if decile > shown:
                shown = decile
                _say(config, f"C++ tests: compiled {done}/{total} "
                             f"({time.monotonic() - start:.0f} s)")
    assert proc.wait() == 0, "".join(tail)[-4000:]


@pytest.fixture(scope="session")
def cpp_test_binary(pytestconfig):
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.fail("cmake is required to build the C++ tests (pip install '.[test]')")
    build = REPO / "build" / "cpp-tests"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    _say(pytestconfig, f"C++ tests: configuring and building in {build} ...")
    subprocess.run([cmake, "-S", str(REPO), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                    *generator], check=True, capture_output=True)
    _build(pytestconfig, cmake, build)
    return build / "accelsim_cpp_tests"


@pytest.fixture(scope="session")
def cpp_outcomes(cpp_test_binary) -> dict:
    """Runs every case once; name -> (passed, message)."""
    result = subprocess.run([str(cpp_test_binary)], capture_output=True, text=True, timeout=600)
    outcomes = {}
    for line in result.stdout.splitlines():
        match = re.match(r"(ok  |FAIL) (\S+?)(?:: (.*))?$", line)
        if match:
            outcomes[match.group(2)] = (match.group(1) == "ok  ", match.group(3) or "")
    outcomes["<exit>"] = (result.returncode, result.stdout[-2000:] + result.stderr[-2000:])
    return outcomes


def test_cpp_cases_found_in_sources_are_the_binary_cases(cpp_test_binary):
    listed = subprocess.run([str(cpp_test_binary), "--list"], capture_output=True, text=True,
                            check=True).stdout.split()
    assert sorted(listed) == sorted(CASES)
    assert len(set(listed)) == len(listed), "two C++ test cases share a name"


@pytest.mark.parametrize("name", CASES)
def test_cpp(cpp_outcomes, name):
    if name not in cpp_outcomes:
        code, output = cpp_outcomes["<exit>"]
        pytest.fail(f"no result for {name}: the test binary ended with status {code} "
                    f"before reaching it\n{output}")
    passed, message = cpp_outcomes[name]
    assert passed, message


def test_cpp_binary_exit_status_matches_its_cases(cpp_outcomes):
    code, output = cpp_outcomes["<exit>"]
    failed = [n for n, v in cpp_outcomes.items() if n != "<exit>" and not v[0]]
    assert (code == 0) == (not failed), output
