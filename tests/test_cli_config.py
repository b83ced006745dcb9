import json
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True,
                          text=True)


def test_config_list_and_show():
    out = run("config", "list")
    assert out.returncode == 0 and "QV100" in out.stdout
    out = run("config", "show", "QV100", "--set", "sm_count=40", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["sm_count"] == 40


def test_config_show_bad_key_exits_nonzero():
    out = run("config", "show", "QV100", "--set", "sm_cont=4")
    assert out.returncode == 1 and "did you mean 'sm_count'" in out.stderr


def test_config_import(shared, tmp_path):
    d = shared / "accelsim_configs" / "SM7_TITANV"
    target = tmp_path / "t.yaml"
    out = run("config", "import", str(d / "gpgpusim.config"), str(d / "trace.config"),
              "-o", str(target))
    assert out.returncode == 0 and "not modelled" in out.stderr
    import accelsim

    assert accelsim.load_config(target).memory_partitions == 24
