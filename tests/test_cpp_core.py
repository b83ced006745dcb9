"""Builds the core and its C++ behaviour tests with plain CMake (no Python in
the build) and runs them: the C++ suite is part of the one test command."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import REPO


@pytest.fixture(scope="session")
def cpp_test_binary():
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.fail("cmake is required to build the C++ tests (pip install '.[test]')")
    build = REPO / "build" / "cpp-tests"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.run([cmake, "-S", str(REPO), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                    *generator], check=True, capture_output=True)
    result = subprocess.run([cmake, "--build", str(build), "-j", "2"], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return build / "accelsim_cpp_tests"


def test_cpp_behaviour_tests_pass(cpp_test_binary):
    result = subprocess.run([str(cpp_test_binary)], capture_output=True, text=True, timeout=600)
    summary = re.search(r"(\d+) passed, (\d+) failed", result.stdout)
    assert summary, result.stdout[-2000:]
    assert result.returncode == 0 and summary.group(2) == "0", result.stdout[-4000:]
    assert int(summary.group(1)) > 0
