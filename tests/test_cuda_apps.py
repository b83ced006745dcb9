"""A few programs of the real suites (../shared/data/apps: Rodinia 3.1,
Parboil) built as they are with nvcc 13 and run unmodified under
accelsim.run_cuda with small generated inputs (Rodinia bfs, pathfinder, lud,
nw, hotspot, hotspot3D, srad_v1, b+tree, dwt2d, both particlefilters, lavaMD,
streamcluster, heartwall; Parboil stencil, histo, cutcp, tpacf, sgemm),
checked against references computed from the same inputs or by the
program's own check; PolyBench/GPU's fixed sizes under the table's wall
budget. The whole table is `python -m accelsim.bench.cuda_apps`
(docs/cuda_apps.md)."""
from __future__ import annotations

import os

import pytest

from cuda_util import need_toolchain

SMALL = ["bfs", "pathfinder", "lud", "nw", "hotspot", "hotspot3D", "srad_v1", "b+tree", "dwt2d", "stencil", "histo",
         "cutcp", "tpacf", "particlefilter_naive", "particlefilter_float", "lavaMD", "streamcluster", "heartwall",
         "sgemm"]


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


def _pf_stdout(estimates) -> str:
    """particlefilter's estimate lines, printed as its printf("%lf") does."""
    return "".join(f"XE: {x:f}\nYE: {y:f}\n{(x * x + y * y) ** 0.5:f}\n" for x, y in estimates)


@pytest.mark.parametrize("byte", [False, True])
def test_particlefilter_check_finds_the_clock_seed_and_rejects_a_moved_estimate(byte):
    """The replay for the second the program seeded with passes; the same
    lines with one estimate moved by 1e-5 do not, nor does another second's."""
    from accelsim.bench.cuda_apps_seeded import particlefilter_check, particlefilter_replay

    clock = 1_795_000_000
    want = particlefilter_replay(16, 16, 3, 20, clock, byte)
    printed = want[-1:] if byte else want
    sizes = (16, 16, 3, 20)
    assert particlefilter_check(_pf_stdout(printed), sizes, clock - 1.5, byte, end=clock + 0.5)
    moved = [*printed[:-1], (printed[-1][0] + 1e-5, printed[-1][1])]
    assert not particlefilter_check(_pf_stdout(moved), sizes, clock - 1.5, byte, end=clock + 0.5)
    assert not particlefilter_check(_pf_stdout(printed), sizes, clock + 1, byte, end=clock + 2.5)


def test_particlefilter_generator_wraps_like_c_ints():
    """The generator's int product wraps and its remainder keeps the
    dividend's sign: the values its C code (gcc -O3) gives from 2e9."""
    from accelsim.bench.cuda_apps_seeded import _randu

    seed = [2_000_000_000]
    assert _randu(seed, 0) == 0.89916369686795572 and seed == [-1930939335]
    assert _randu(seed, 0) == 0.78229397664884759 and seed == [-1679963522]


def test_lavamd_check_rejects_a_wrong_force(tmp_path):
    """result.txt written as lavaMD writes it ("%f, %f, %f, %f") from the
    reference passes for its second and fails with one force off by 1e-5."""
    from accelsim.bench.cuda_apps_seeded import lavamd_check, lavamd_reference

    clock = 1_795_000_000
    fv = lavamd_reference(1, clock)

    def write(values):
        (tmp_path / "result.txt").write_text("".join(", ".join(f"{v:f}" for v in r) + "\n" for r in values))

    write(fv)
    assert lavamd_check(tmp_path, 1, clock - 0.5, end=clock + 0.5)
    fv[42, 2] += 1e-5
    write(fv)
    assert not lavamd_check(tmp_path, 1, clock - 0.5, end=clock + 0.5)


def test_heartwall_check_compares_frame_zero_with_the_source_points(apps_root, tmp_path):
    from accelsim.bench.cuda_apps_suite_refs import heartwall_check, heartwall_points

    main_cu = apps_root / "rodinia/3.1/cuda/heartwall/main.cu"
    pts = heartwall_points(main_cu)
    assert len(pts["endoRow"]) == len(pts["endoCol"]) == 20 and len(pts["epiRow"]) == len(pts["epiCol"]) == 31

    def write(p):
        row = lambda v: "".join(f"{x}\t" for x in v)  # noqa: E731
        (tmp_path / "result.txt").write_text(
            f"Total AVI Frames: 1\nFrames Processed: 1\nendoPoints: 20\nepiPoints: 31\n---Frame 0---\n--endo--\n"
            f"{row(p['endoRow'])}\n{row(p['endoCol'])}\n--epi--\n{row(p['epiRow'])}\n{row(p['epiCol'])}")

    write(pts)
    assert heartwall_check(tmp_path, main_cu)
    pts["epiCol"][7] += 1
    write(pts)
    assert not heartwall_check(tmp_path, main_cu)


def test_streamcluster_check_rejects_an_output_the_cpu_original_does_not_write(apps_root, tmp_path):
    """The CPU original's own output passes; the same with one weight changed fails."""
    import shutil

    from accelsim.bench.cuda_apps import APPS, STREAMCLUSTER
    from accelsim.bench.cuda_apps_suite_refs import streamcluster_check

    if shutil.which("g++") is None:
        pytest.skip("no g++ for streamcluster's CPU original")
    app = next(a for a in APPS if a.name == "streamcluster")
    original = apps_root / app.folder / "streamcluster_original.cpp"
    args = STREAMCLUSTER["small"]
    (tmp_path / "output.txt").write_text("")
    assert not streamcluster_check(tmp_path, original, args)
    text = (tmp_path / "cpu-reference" / "output.txt").read_text()
    (tmp_path / "output.txt").write_text(text)
    assert streamcluster_check(tmp_path, original, args)
    lines = text.splitlines()
    lines[1] = f"{float(lines[1]) + 1:f}"
    (tmp_path / "output.txt").write_text("\n".join(lines) + "\n")
    assert not streamcluster_check(tmp_path, original, args)


def test_sgemm_check_rejects_a_wrong_product_element(tmp_path):
    from accelsim.bench.cuda_apps_inputs import parboil_sgemm_check, parboil_sgemm_inputs

    files = parboil_sgemm_inputs(tmp_path, 8, 3, 4)
    read = lambda n: [float(v) for v in (tmp_path / n).read_text().split()[2:]]  # noqa: E731
    a, bt = read("A.txt"), read("BT.txt")
    c = [sum(a[p * 8 + i] * bt[p * 4 + j] for p in range(3)) for j in range(4) for i in range(8)]
    (tmp_path / "C.txt").write_text("8 4\n" + " ".join(f"{v:g}" for v in c) + "\n")
    assert parboil_sgemm_check(tmp_path, files)
    c[5] += 1
    (tmp_path / "C.txt").write_text("8 4\n" + " ".join(f"{v:g}" for v in c) + "\n")
    assert not parboil_sgemm_check(tmp_path, files)



def test_a_reference_that_cannot_be_made_leaves_the_row_without_a_verdict(apps_root, tmp_path, monkeypatch):
    """No host compiler for streamcluster's CPU original: the row says so
    and is neither correct nor wrong. (The original's source lives in the
    suites, so without them the row would say that instead.)"""
    from types import SimpleNamespace

    from accelsim.bench import cuda_apps_suite_refs as refs
    from accelsim.bench.cuda_apps import APPS, _verdict

    monkeypatch.setattr(refs.shutil, "which", lambda name: None)
    app = next(a for a in APPS if a.name == "streamcluster")
    (tmp_path / "output.txt").write_text("")
    row = _verdict(app, SimpleNamespace(stdout=""), tmp_path, ["2", "4", "16", "256", "256", "100", "none",
                                                                 "output.txt", "1"])
    assert "correct" not in row and row["why"].startswith("no reference here: no C++ compiler")


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


def test_only_takes_a_list_and_refuses_an_unknown_name(capsys):
    """A misspelt --only used to run nothing and print an empty table."""
    from accelsim.bench.cuda_apps import main

    with pytest.raises(SystemExit) as e:
        main(["--only", "GEMM,3mm"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no program named 3mm" in err and "GEMM" not in err.split("no program named")[1].split("(")[0]
