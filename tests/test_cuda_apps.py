"""A few programs of the real suites (../shared/data/apps: Rodinia 3.1,
Parboil) built as they are with nvcc 13 and run unmodified under
accelsim.run_cuda with small generated inputs (Rodinia bfs, pathfinder, lud,
nw, hotspot, hotspot3D, srad_v1, b+tree, dwt2d; Parboil stencil, histo, cutcp,
tpacf), checked against references computed from the same inputs or by the
program's own check; PolyBench/GPU's fixed sizes under the table's wall
budget. The whole table is `python -m accelsim.bench.cuda_apps`
(docs/cuda_apps.md)."""
from __future__ import annotations

import os

import pytest

from cuda_util import need_toolchain

SMALL = ["bfs", "pathfinder", "lud", "nw", "hotspot", "hotspot3D", "srad_v1", "b+tree", "dwt2d", "stencil", "histo",
         "cutcp", "tpacf"]


@pytest.fixture(scope="module")
def apps_root():
    from accelsim.bench.cuda_apps import apps_folder

    root = apps_folder()
    if root is None:
        pytest.skip("../shared/data/apps (the CUDA suites as source) is not present")
    return root


@pytest.mark.parametrize("name", SMALL)
def test_suite_program_runs_unmodified_and_is_correct(name, apps_root, tmp_path):
    from accelsim.bench.cuda_apps import APPS, build_app_or_compat, run_app

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == name)
    exe, why, _ = build_app_or_compat(app, apps_root, tmp_path, nvcc)  # as the table's --compat builds it
    assert exe is not None, why
    row = run_app(app, exe, apps_root, "small", "QV100", budget=300)
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


def test_references_reject_a_wrong_output(tmp_path):
    """The hotspot reference accepts its own result written as the program
    writes it, and rejects it with one cell off by 0.01 degrees."""
    from accelsim.bench import cuda_apps_rodinia as rodinia

    temp, power = rodinia.hotspot_inputs(tmp_path, 16)
    want = rodinia._hotspot_reference(rodinia._read_column(temp), rodinia._read_column(power), 16, 20)
    out = tmp_path / "output.txt"
    out.write_text("".join(f"{i}\t{v:g}\n" for i, v in enumerate(want)))
    assert rodinia.hotspot_check(tmp_path, 16, 20)
    want[37] += 0.01
    out.write_text("".join(f"{i}\t{v:g}\n" for i, v in enumerate(want)))
    assert not rodinia.hotspot_check(tmp_path, 16, 20)


def test_glibc_rand_sequence():
    """b+tree's query keys come from rand() without srand: glibc's first values."""
    from accelsim.bench.cuda_apps_rodinia import glibc_rand

    assert glibc_rand(3) == [1804289383, 846930886, 1681692777]


def test_stencil_reference_rejects_a_wrong_cell(tmp_path):
    """Parboil stencil's reference: the program's output layout (u32 count,
    then the grid) passes when it holds the reference, fails with one
    interior cell changed."""
    import numpy as np

    from accelsim.bench import cuda_apps_parboil as parboil

    parboil.stencil_input(tmp_path, 8, 6, 5)
    a = np.fromfile(tmp_path / "input.bin", dtype=np.float32).reshape(5, 6, 8)
    want = parboil._stencil_reference(a, 3).ravel()

    def write(v):
        (tmp_path / "output.bin").write_bytes(np.uint32(v.size).tobytes() + v.astype(np.float32).tobytes())

    write(want)
    assert parboil.stencil_check(tmp_path, 8, 6, 5, 3)
    want[8 * 6 * 2 + 8 * 2 + 3] += 1e-3
    write(want)
    assert not parboil.stencil_check(tmp_path, 8, 6, 5, 3)


def test_srad_v2_row_explains_its_own_out_of_bounds_read(apps_root, tmp_path):
    """srad_v2 reads the image row above its buffer (its own bug: the value
    is loaded, then replaced for the top block row). The simulator stops at
    the read and the row says whose bug it is and why a GPU runs it."""
    from accelsim.bench.cuda_apps import APPS, build_app_or_compat, run_app

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == "srad_v2")
    exe, why, _ = build_app_or_compat(app, apps_root, tmp_path, nvcc)
    assert exe is not None, why
    row = run_app(app, exe, apps_root, "small", "QV100", budget=300)
    assert not row["ran"]
    assert row["why"].startswith("the program's own out-of-bounds read") and "0xffffff00" in row["why"]
    assert str(tmp_path) not in row["why"]


def test_dwt53_lifting_divides_as_c_does():
    """dwt2d's reference lifting: mirrored edges and division toward zero
    (-5 / 2 is -2, not floor's -3), worked by hand."""
    import numpy as np

    from accelsim.bench.cuda_apps_rodinia import _lift53

    assert _lift53(np.array([1, 2, 3, 4])).tolist() == [1, 3, 0, 1]
    assert _lift53(np.array([-5, 0, 0, 0])).tolist() == [-4, 1, 2, 0]


def test_a_program_past_its_wall_budget_reports_its_measured_progress(apps_root, tmp_path):
    """PolyBench GEMM runs as it is (512^3, minutes of simulation); stopped at
    a 10 s budget, its row gives what it measured: kernels done, the
    simulated clock and the simulation rate, not a verdict."""
    from accelsim.bench.cuda_apps import APPS, build_app_or_compat, run_app

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == "GEMM")
    exe, why, _ = build_app_or_compat(app, apps_root, tmp_path, nvcc)
    assert exe is not None, why
    row = run_app(app, exe, apps_root, "small", "QV100", budget=10)
    assert not row["ran"] and row["correct"] is None
    assert row["why"].startswith("did not finish in the 10 s wall budget: 0 kernels done"), row["why"]
    assert "warp instructions simulated" in row["why"]
    assert row["wall_s"] >= 10 and row["kernels"] == 0


def test_polybench_check_needs_every_count_zero():
    from accelsim.bench.cuda_apps_inputs import polybench_check

    line = "Non-Matching CPU-GPU Outputs Beyond Error Threshold of 0.05 Percent: {}\n"
    assert polybench_check(None, "GPU Runtime: 1s\n" + line.format(0))
    assert not polybench_check(None, line.format(3))
    assert not polybench_check(None, line.format(0) + line.format(1))
    assert not polybench_check(None, "GPU Runtime: 1s\n")  # stopped before its comparison


def test_doc_merge_replaces_only_the_rows_run_again(tmp_path):
    """--write-doc with --only: the rerun programs' rows replace theirs (a
    "(compat)" build matches its program), the others and the doc's own
    footnote stay, and the new footnote follows it."""
    from accelsim.bench.cuda_apps import MARK_BEGIN, MARK_END, write_doc

    head = "| suite | program | built |\n|---|---|---|\n"
    doc = tmp_path / "apps.md"
    doc.write_text(f"intro\n{MARK_BEGIN}\n{head}| rodinia | bfs | yes |\n| polybench | GEMM (compat) | yes |\n"
                   f"| polybench | MVT (compat) | yes |\n\n(size small)\n{MARK_END}\nafter\n")
    write_doc(doc, f"{head}| polybench | GEMM (compat) | again |\n| parboil | new | yes |\n\n(GEMM: budget 5 s)",
              merge=True)
    text = doc.read_text()
    assert "| rodinia | bfs | yes |\n| polybench | GEMM (compat) | again |\n| polybench | MVT (compat) | yes |\n" \
           "| parboil | new | yes |\n\n(size small)\n(GEMM: budget 5 s)\n" + MARK_END in text
    assert text.startswith("intro\n") and text.endswith("after\n")


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ACCELSIM_RUN_SLOW") != "1",
                    reason="set ACCELSIM_RUN_SLOW=1 to run PolyBench GESUMMV at its full size (about a minute)")
def test_polybench_program_runs_unmodified_at_full_size_and_passes_its_check(apps_root, tmp_path):
    """PolyBench/GPU GESUMMV (4096 x 4096, sizes fixed in its source) as it
    is: it runs to its end and its own CPU-GPU comparison counts 0
    mismatches."""
    from accelsim.bench.cuda_apps import APPS, build_app_or_compat, run_app

    nvcc = need_toolchain()
    app = next(a for a in APPS if a.name == "GESUMMV")
    exe, why, _ = build_app_or_compat(app, apps_root, tmp_path, nvcc)
    assert exe is not None, why
    row = run_app(app, exe, apps_root, "small", "QV100", budget=900)
    assert row["ran"] and row["correct"] is True, row["why"]
    assert row["kernels"] == 1 and row["cycles"] > 0
