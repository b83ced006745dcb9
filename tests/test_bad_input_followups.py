"""Defects the fuzzer and the catalogue still found after the first hardening branches
merged, each as the user meets it."""
from __future__ import annotations

import subprocess
import sys

import pytest

import accelsim


def cli(*args):
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("key", [None, 7, 1.5, ("l2_size",)])
def test_dict_config_key_that_is_not_a_string_is_a_config_error(key):
    with pytest.raises(accelsim.ConfigError, match="parameter names"):
        accelsim.load_config("QV100").with_overrides({key: 1})


def test_trace_info_on_a_kernelslist_without_kernels_is_an_error(tmp_path):
    empty = tmp_path / "kernelslist.g"
    empty.write_text("")
    out = cli("trace-info", str(empty))
    assert out.returncode == 1
    assert "no kernel" in out.stderr and "Traceback" not in out.stderr


def test_cli_warning_is_one_line_without_accelsim_source_paths(tmp_path):
    bad = tmp_path / "kernelslist.g"
    bad.write_text("Memcpyhtod,0x1,4\n")
    out = cli("run", str(bad))
    lines = [ln for ln in out.stderr.splitlines() if "warning" in ln]
    assert lines and lines[0].startswith("accelsim: warning: ") and "Memcpyhtod" in lines[0]
    assert "python/accelsim" not in out.stderr and ".py:" not in out.stderr


def test_gpgpusim_cache_spec_with_trailing_garbage_is_a_config_error(tmp_path):
    cfg = tmp_path / "gpgpusim.config"
    cfg.write_text("-gpgpu_n_clusters 80\n-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 zzz\n")
    with pytest.raises(accelsim.ConfigError, match="zzz") as err:
        accelsim.import_gpgpusim_config(cfg)
    assert err.value.line == 2
