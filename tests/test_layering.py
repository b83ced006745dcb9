"""The C++ layering is enforced by the build: an include against the layer
order of cmake/layers.cmake (docs/design.md) fails `cmake --build`."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import REPO

CMAKE = shutil.which("cmake")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="cmake is required (pip install '.[test]')")


def check(root):
    return subprocess.run([CMAKE, f"-DROOT={root}", "-P", str(REPO / "cmake" / "check_layers.cmake")],
                          capture_output=True, text=True)


def copy_tree(tmp_path):
    root = tmp_path / "src"
    shutil.copytree(REPO / "cpp", root / "cpp", ignore=shutil.ignore_patterns("tests"))
    shutil.copytree(REPO / "cmake", root / "cmake")
    shutil.copy(REPO / "CMakeLists.txt", root / "CMakeLists.txt")
    return root


def add_include(path, header):
    """`header` as a quoted include, or a whole include target (<...>, "../...")."""
    target = header if header[0] in '<"' else f'"{header}"'
    text = path.read_text()
    path.write_text(text.replace("#pragma once\n", f"#pragma once\n#include {target}\n", 1))


def test_the_tree_follows_the_layer_order():
    result = check(REPO)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("includer, header", [
    ("cpp/base/clocked.h", "sim/gpu.h"),         # base reaching up to the GPU
    ("cpp/ldst/ldst_unit.h", "sm/sm.h"),         # the sm <-> ldst cycle, reversed
    ("cpp/mem/detailed_memory.h", "sim/clock_domains.h"),
    ("cpp/stats/run_stats.h", "cache/cache_types.h"),
])
def test_a_reversed_include_is_named(tmp_path, includer, header):
    root = copy_tree(tmp_path)
    add_include(root / includer, header)
    result = check(root)
    assert result.returncode != 0
    assert includer in result.stderr and header in result.stderr


@pytest.mark.parametrize("includer, target", [
    ("cpp/base/clocked.h", "<sim/gpu.h>"),              # angle brackets
    ("cpp/ldst/ldst_unit.h", '"../sm/sm.h"'),           # relative, up and across
    ("cpp/sm/sched/warp_scheduler.h", '"../../sim/gpu.h"'),
    ("cpp/cache/cache.h", '"../../bindings/config_convert.h"'),  # out of the core
])
def test_angle_and_relative_includes_are_checked_too(tmp_path, includer, target):
    root = copy_tree(tmp_path)
    add_include(root / includer, target)
    result = check(root)
    assert result.returncode != 0
    assert includer in result.stderr and target in result.stderr


def test_allowed_relative_and_system_includes_pass(tmp_path):
    root = copy_tree(tmp_path)
    add_include(root / "cpp" / "sm" / "sched" / "warp_scheduler.h", '"../warp.h"')   # own folder
    add_include(root / "cpp" / "sm" / "warp.h", '"../base/time.h"')                    # a lower layer
    add_include(root / "cpp" / "sim" / "gpu.h", "<vector>")
    result = check(root)
    assert result.returncode == 0, result.stderr


def test_an_undeclared_folder_is_refused(tmp_path):
    root = copy_tree(tmp_path)
    (root / "cpp" / "newpart").mkdir()
    (root / "cpp" / "newpart" / "x.h").write_text("#pragma once\n")
    result = check(root)
    assert result.returncode != 0 and "cpp/newpart/" in result.stderr


@pytest.mark.parametrize("target", ['"sim/gpu.h"', "<sim/gpu.h>", '"../sim/gpu.h"'])
def test_a_reversed_include_fails_the_build(tmp_path, target):
    """The check is a step of the core's build, not only a script."""
    root = copy_tree(tmp_path)
    build = tmp_path / "build"
    configure = [CMAKE, "-S", str(root), "-B", str(build), "-DACCELSIM_BUILD_TESTS=OFF"]
    assert subprocess.run(configure, capture_output=True).returncode == 0
    build_step = [CMAKE, "--build", str(build), "--target", "accelsim_layers"]
    ok = subprocess.run(build_step, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    add_include(root / "cpp" / "sm" / "warp.h", target)
    failed = subprocess.run(build_step, capture_output=True, text=True)
    assert failed.returncode != 0
    assert "cpp/sm/warp.h" in failed.stdout + failed.stderr
