"""accelsim.sweep: the same table on every engine, validation before anything
runs, storage and resume, the CLI."""
from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

import accelsim
from accelsim import ConfigError
from sweep_helpers import GRID, make_workloads


@pytest.fixture(scope="module")
def workloads(tmp_path_factory):
    return make_workloads(tmp_path_factory.mktemp("sweep-workloads"))


@pytest.fixture(scope="module")
def reference(workloads, tmp_path_factory):
    """The 3 x 3 x 3 grid over both workloads, in this process."""
    out = tmp_path_factory.mktemp("sweep-serial")
    return accelsim.sweep(workloads, "QV100", GRID, out=out, engine="serial")


def test_table_shape(reference):
    df = reference
    assert len(df) == 27 * 2 and (df["status"] == "ok").all() and df["error"].isna().all()
    assert list(df.columns[:6]) == ["point", "icnt_latency", "l2_rop_latency", "scheduler",
                                    "workload", "kernel_id"]
    assert {"kernel_name", "cycles", "warp_instructions", "ipc", "completed"} <= set(df.columns)
    # swept values in canonical units, in grid (itertools.product) order
    assert df["icnt_latency"].tolist()[:2] == [4, 4] and df["scheduler"].iloc[2] == "gto"
    assert sorted(df["icnt_latency"].unique()) == [4, 8, 16]
    assert df["point"].tolist() == [i // 2 for i in range(54)]
    assert df["workload"].tolist()[:2] == ["vecadd", "chase"]
    # every parameter moves the cycles (the scheduler only with more than one warp)
    for name in GRID:
        rows = df[df["workload"] == "vecadd"]
        assert rows.groupby(name)["cycles"].mean().nunique() > 1, name
    assert df[df["workload"] == "chase"]["cycles"].nunique() == 9
    assert df.attrs["points"] == 27 and df.attrs["errors"] == 0 and df.attrs["engine"] == "serial"


def test_process_pool_and_dask_give_identical_tables(workloads, reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    pool = accelsim.sweep(workloads, "QV100", GRID, out=tmp_path / "pool", engine="process",
                          workers=2)
    pd.testing.assert_frame_equal(pool, reference)
    # A LocalCluster of two worker processes, given as a Client (engine="dask",
    # which makes its own LocalCluster, runs in test_sweep_faults.py).
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask = accelsim.sweep(workloads, "QV100", GRID, out=tmp_path / "dask", engine=client)
        assert len(client.run(lambda: 1)) == 2  # (the client is left open for its owner)
    pd.testing.assert_frame_equal(dask, reference)
    assert dask.attrs["engine"] == "dask"
    # what is on disk reads back as the same table
    pd.testing.assert_frame_equal(accelsim.sweep.load_sweep(tmp_path / "dask"), reference)


def test_callable_package_and_imports():
    import accelsim.sweep.storage  # binds the package to accelsim.sweep
    from accelsim.sweep import load_sweep, sweep

    assert callable(accelsim.sweep) and callable(sweep) and callable(load_sweep)
    assert accelsim.sweep.load_sweep is load_sweep
    assert "sweep" in accelsim.__all__


@pytest.mark.parametrize("kwargs, message", [
    ({"grid": {"l2_sise": ["6 MiB"]}}, "did you mean 'l2_size'"),
    ({"grid": {"l2_size": ["6 MiB", "lots"]}}, "'l2_size': bad value 'lots'"),
    ({"grid": {"scheduler": ["gto", "fair"]}}, "allowed one of lrr, gto, two_level"),
    ({"grid": {"l2_size": "6 MiB"}}, "must be a non-empty list"),
    ({"grid": {"l2_size": ["6 MiB", 6291456]}}, "are the same"),
    ({"grid": {"exec_units": [[]]}}, "cannot be swept"),
    ({"grid": {"icnt_latency": [4]}, "points": [{}]}, "not both"),
    ({"points": [{"l2_size": "6 MiB"}, {"l2_size": 6291456}]}, "simulate the same thing"),
    ({"points": ["l2_size"]}, "points[0] must be a dict"),
    ({"grid": {"icnt_latency": [4]}, "engine": "spark"}, "unknown sweep engine 'spark'"),
    ({"grid": {"icnt_latency": [4]}, "workers": 0}, "workers must be a positive"),
    ({"grid": {"icnt_latency": [4]}, "max_cycles": -5}, "max_cycles must be a positive"),
    ({"grid": {"icnt_latency": [4]}, "kernels": "3-1"}, "runs backwards"),
])
def test_bad_arguments_fail_before_anything_runs(workloads, tmp_path, kwargs, message):
    out = tmp_path / "out"
    kwargs = {"engine": "serial", **kwargs}
    with pytest.raises(ConfigError) as err:
        accelsim.sweep(workloads, "QV100", out=out, **kwargs)
    assert message in str(err.value)
    assert not out.exists()


def test_cross_field_rules_name_the_point(workloads, tmp_path):
    with pytest.raises(ConfigError, match=r"point 1 \{'l1d_sector': 64"):
        accelsim.sweep(workloads, "QV100", points=[{}, {"l1d_sector": 64, "l1d_line": 32}],
                       out=tmp_path / "o", engine="serial")


def test_missing_workload_and_config(tmp_path):
    with pytest.raises(accelsim.TraceError, match="no such file"):
        accelsim.sweep({"w": tmp_path / "nope"}, "QV100", engine="serial")
    with pytest.raises(ConfigError, match="no config named"):
        accelsim.sweep({"w": tmp_path}, "QV1OO", engine="serial")


def _counting():
    calls = []
    return calls, calls.append


def test_resume_extend_refuse_replace(workloads, tmp_path):
    out = tmp_path / "out"
    grid = {"icnt_latency": [4, 8]}
    calls, count = _counting()
    first = accelsim.sweep(workloads, "QV100", grid, out=out, engine="serial", progress=count)
    assert len(calls) == 4 and calls[-1]["done"] == calls[-1]["total"] == 4
    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "runs").glob("*.parquet")}

    calls, count = _counting()  # same sweep again: nothing runs, same table
    again = accelsim.sweep(workloads, "QV100", grid, out=out, engine="serial", progress=count)
    assert calls == []
    pd.testing.assert_frame_equal(again, first)

    calls, count = _counting()  # a value added: only its runs
    grown = accelsim.sweep(workloads, "QV100", {"icnt_latency": [4, 8, 16]}, out=out,
                           engine="serial", progress=count)
    assert len(calls) == 2 and len(grown) == 6
    pd.testing.assert_frame_equal(grown.iloc[:4], first)
    assert {p.name: p.stat().st_mtime_ns for p in (out / "runs").glob("*.parquet")
            if p.name in stamps} == stamps

    # another parameter, set to its base value: the same simulation as a stored point
    rop = accelsim.load_config("QV100")["l2_rop_latency"]
    calls, count = _counting()
    both = accelsim.sweep(workloads, "QV100", points=[{"icnt_latency": 4, "l2_rop_latency": rop},
                                                     {"l2_rop_latency": 60}],
                          out=out, engine="serial", progress=count)
    assert len(calls) == 2  # point 0 is the stored icnt_latency=4 point
    assert both["icnt_latency"].tolist() == [4, 4, 8, 8]
    assert set(accelsim.sweep.load_sweep(out)["point"]) == {0, 1, 2, 3}

    with pytest.raises(ConfigError, match=r"base config differs \(l1d_hit_latency: 28 -> 30\)"):
        accelsim.sweep(workloads, accelsim.load_config("QV100").with_overrides(
            {"l1d_hit_latency": 30}), grid, out=out, engine="serial")
    with pytest.raises(ConfigError, match="max_cycles differs"):
        accelsim.sweep(workloads, "QV100", grid, out=out, engine="serial", max_cycles=1000)
    replaced = accelsim.sweep(workloads, "QV100", grid, out=out, engine="serial",
                              max_cycles=1000, resume=False)
    assert not replaced["completed"].any() and len(list((out / "runs").iterdir())) == 4


def test_a_point_that_raises_is_recorded_and_rerun(workloads, tmp_path):
    out = tmp_path / "out"
    points = [{"deadlock_cycles": 100}, {}]
    df = accelsim.sweep({"chase": workloads["chase"]}, "QV100", points=points, out=out,
                        engine="process", workers=2)
    bad, good = df.iloc[0], df.iloc[1]
    assert bad["status"] == "error" and bad["error"].startswith("DeadlockError: deadlock")
    assert pd.isna(bad["cycles"]) and good["status"] == "ok" and good["cycles"] > 0
    assert df.attrs["errors"] == 1
    calls, count = _counting()
    accelsim.sweep({"chase": workloads["chase"]}, "QV100", points=points, out=out,
                   engine="serial", progress=count)
    assert [c["point"] for c in calls] == [0]  # failed runs are recomputed, finished ones kept


def test_broken_workload_fails_its_runs_only(workloads, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "kernelslist.g").write_text("kernel-1.traceg\n")
    (broken / "kernel-1.traceg").write_text("-kernel name = k\n-grid dim = (1,1,1)\nnonsense\n")
    df = accelsim.sweep({"ok": workloads["vecadd"], "broken": broken}, "QV100",
                        {"icnt_latency": [4, 8]}, engine="serial")
    assert df.groupby("workload")["status"].unique().to_dict() == {"broken": ["error"],
                                                                  "ok": ["ok"]}
    assert df.loc[df["workload"] == "broken", "error"].str.contains("TraceError").all()
    assert df.attrs["out"]  # a temp directory was used


def test_one_sweep_at_a_time_per_directory_and_no_grid(workloads, tmp_path):
    from accelsim.sweep.storage import SweepStore

    out = tmp_path / "out"
    base = accelsim.sweep({"v": workloads["vecadd"]}, "QV100", out=out, engine="serial")
    assert len(base) == 1 and base["point"].tolist() == [0] and base.attrs["params"] == []
    fixed = __import__("json").loads((out / "sweep.json").read_text())
    holder = SweepStore.open(out, {k: fixed[k] for k in ("config", "workloads", "kernels",
                                                         "max_cycles")}, [], [])
    try:
        with pytest.raises(ConfigError, match=r"another sweep is writing here \(pid "):
            accelsim.sweep({"v": workloads["vecadd"]}, "QV100", out=out, engine="serial")
    finally:
        holder.close()
    with pytest.raises(ConfigError, match="not a sweep directory"):
        accelsim.sweep.load_sweep(tmp_path)


def test_kernel_column_named_like_a_swept_parameter(workloads):
    df = accelsim.sweep({"v": workloads["vecadd"]}, "QV100", {"l1d_size": ["32 KiB", "64 KiB"]},
                        engine="serial")
    assert df["l1d_size"].tolist() == [32768, 65536] and "kernel_l1d_size" in df


def test_progress_bar(workloads, capsys):
    accelsim.sweep({"v": workloads["vecadd"]}, "QV100", {"icnt_latency": [4, 8]},
                   engine="serial", progress=True)
    assert "2/2" in capsys.readouterr().err
    accelsim.sweep({"v": workloads["vecadd"]}, "QV100", {"icnt_latency": [4, 8]},
                   engine="serial")  # not a terminal: no bar
    assert capsys.readouterr().err == ""


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "accelsim", "sweep", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_cli(workloads, tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"workloads: {{v: {workloads['vecadd']}, c: {workloads['chase']}}}\n"
                    "config: QV100\ngrid:\n  icnt_latency: [4, 16]\n  scheduler: [lrr, gto]\n"
                    "max_cycles: 100000\n")
    res = _cli(str(spec), "--workers", "2", "--csv", str(tmp_path / "t.csv"))
    assert res.returncode == 0, res.stderr
    assert "4 points, 0 failed runs" in res.stdout and "icnt_latency" in res.stdout
    table = pd.read_csv(tmp_path / "t.csv")
    assert len(table) == 8 and set(table["workload"]) == {"v", "c"}
    pd.testing.assert_frame_equal(accelsim.sweep.load_sweep(tmp_path / "spec.sweep"),
                                  accelsim.sweep(dict(v=workloads["vecadd"], c=workloads["chase"]),
                                                 "QV100", {"icnt_latency": [4, 16],
                                                           "scheduler": ["lrr", "gto"]},
                                                 engine="serial", max_cycles=100000),
                                  check_like=False)


def test_cli_spec_errors(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("workloads: w\nconfig: QV100\ngrids:\n  icnt_latency: [4]\n")
    res = _cli(str(spec))
    assert res.returncode == 1
    assert f"{spec}:3: unknown key 'grids'; did you mean 'grid'?" in res.stderr
    spec.write_text("config: QV100\n")
    assert "missing 'workloads'" in _cli(str(spec)).stderr
    spec.write_text("workloads: [w\n")
    assert "not valid YAML" in _cli(str(spec)).stderr
    assert "cannot read the sweep spec" in _cli(str(tmp_path / "none.yaml")).stderr


def test_sweep_bench_rows():
    from accelsim.bench.sweep_bench import run_sweep_bench

    rows = run_sweep_bench(quick=True, engines=["serial", "process"])
    assert [r["label"] for r in rows] == ["bare Simulator.run", "serial (in process)",
                                          "process x1", "process x2"]
    for r in rows:
        assert r["points"] == 4 and r["wall_s"] > 0 and r["points_per_min"] > 0
    assert rows[0]["overhead_wall_s_per_point"] is None
    assert rows[2]["overhead_wall_s_per_point"] is not None and rows[3]["cpu_s"] > 0
    assert rows[2]["speedup_vs_process_x1"] == 1.0


def test_bench_sweep_cli():
    res = subprocess.run([sys.executable, "-m", "accelsim", "bench", "--sweep", "--quick",
                          "--engine", "serial"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert "points_per_min" in lines[0] and "cpu_s_per_point" in lines[0]
    assert lines[1].split()[:3] == ["bare", "Simulator.run", "1"] and "serial" in lines[2]
