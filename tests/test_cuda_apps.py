"""A few programs of the real suites (../shared/data/apps: Rodinia 3.1)
built as they are with nvcc 13 and run unmodified under accelsim.run_cuda
with small generated inputs (Rodinia bfs, pathfinder, lud), checked against references computed from the
same inputs. The whole table is `python -m accelsim.bench.cuda_apps`
(docs/cuda_apps.md)."""
from __future__ import annotations

import pytest

from cuda_util import need_toolchain

SMALL = ["bfs", "pathfinder", "lud"]  # nn calls cudaThreadSynchronize, gone from CUDA 13: it does not build


@pytest.fixture(scope="module")
def apps_root():
    from accelsim.bench.cuda_apps import apps_folder

    root = apps_folder()
    if root is None:
        pytest.skip("../shared/data/apps (the CUDA suites as source) is not present")
    return root


@pytest.mark.parametrize("name", SMALL)
def test_suite_program_runs_unmodified_and_is_correct(name, apps_root, tmp_path):
    from accelsim.bench.cuda_apps import APPS, build_app, run_app

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == name)
    exe, why = build_app(app, apps_root, tmp_path, nvcc)
    assert exe is not None, why
    row = run_app(app, exe, apps_root, "small", "QV100", timeout=300)
    assert row["ran"], row["why"]
    assert row["correct"] is True, row["why"]
    assert row["kernels"] >= 1 and row["cycles"] > 0


def test_table_rows_say_why_a_program_did_not_build(apps_root, tmp_path):
    from accelsim.bench.cuda_apps import APPS, build_app, table

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == "gaussian")  # uses cudaDeviceProp::clockRate, gone in CUDA 13
    exe, why = build_app(app, apps_root, tmp_path, nvcc)
    assert exe is None and "clockRate" in why
    row = {"suite": "rodinia", "program": "gaussian", "built": False, "ran": False, "correct": None,
           "kernels": None, "cycles": None, "wall_s": None, "why": why}
    assert "| rodinia | gaussian | no | – | – |" in table([row])
