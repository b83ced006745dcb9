"""A run of the suite without ../shared/data ends with one line saying how
many checks were skipped for lack of it, and in which files."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def test_a_run_without_the_data_ends_with_one_line_about_it(tmp_path):
    tests = tmp_path / "clone" / "tests"  # no ../shared beside this "clone"
    tests.mkdir(parents=True)
    shutil.copy(Path(__file__).with_name("conftest.py"), tests)
    (tests / "test_a.py").write_text(
        "def test_real(shared):\n    pass\n\ndef test_two(shared):\n    pass\n\n"
        "def test_plain():\n    pass\n")
    (tests / "test_b.py").write_text(
        "import pytest\nfrom conftest import shared_data\n\n"
        "def test_own_skip():\n    if shared_data() is None:\n"
        "        pytest.skip('../shared/data (real traces) is not present')\n\n"
        "def test_other_skip():\n    pytest.skip('no GPU here')\n")
    env = {k: v for k, v in os.environ.items() if k != "ACCELSIM_SHARED_DATA"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "tests"], capture_output=True, text=True, cwd=tests.parent, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "for lack of ../shared/data" in ln]
    assert lines == ["3 checks skipped for lack of ../shared/data (real traces, configs, "
                     "hardware data; clone beside it or set ACCELSIM_SHARED_DATA): "
                     "tests/test_a.py (2), tests/test_b.py (1)"], out.stdout
