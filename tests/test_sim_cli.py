"""``accelsim run``."""
import json
import subprocess
import sys

from accelsim.tracegen.examples import write_vecadd


def run(*args):
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True, text=True)


def test_run_table_and_json(tmp_path):
    workload = write_vecadd(tmp_path / "v", n=2048)
    out = run("run", str(workload), "--config", "QV100")
    assert out.returncode == 0, out.stderr
    assert "total:" in out.stdout and "_Z6vecAddPKfS0_Pfi" in out.stdout
    out = run("run", str(tmp_path / "v"), "--config", "QV100", "--set", "dram_latency=800", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["completed"] and len(data["kernels"]) == 1
    assert data["kernels"][0]["warp_instructions"] == data["warp_instructions"] > 0


def test_run_errors_are_one_line(tmp_path):
    out = run("run", str(tmp_path / "nothing"))
    assert out.returncode == 1 and "accelsim run: error" in out.stderr
    out = run("run", str(tmp_path), "--set", "sm_cont=2")
    assert out.returncode == 1 and "sm_count" in out.stderr
