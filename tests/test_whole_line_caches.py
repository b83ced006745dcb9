"""Non-sectored caches (sector = line) end to end, and the importer taking
GPGPU-Sim's 'N' caches and defaults as such."""
import re
import subprocess
import sys

import pytest

import accelsim
from accelsim.tracegen.examples import write_vecadd


@pytest.fixture(scope="module")
def vecadd(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("vec") / "w", n=4096, block=256)


@pytest.mark.parametrize("model", ["simple", "detailed"])
def test_non_sectored_l1_and_l2_run_and_miss_once_per_line(vecadd, model):
    base = accelsim.load_config("QV100").with_overrides({"memory_model": model})
    sectored = accelsim.Simulator(base).run(vecadd).kernels.iloc[0]
    whole = accelsim.Simulator(base.with_overrides(
        {"l1d_sector": "128 B", "l2_sector": "128 B"})).run(vecadd).kernels.iloc[0]
    assert whole.cycles > 0 and whole.warp_instructions == sectored.warp_instructions
    # 4 B per thread, unit stride: each 128 B line is 4 sectors but one whole-line miss
    assert sectored.l1d_misses == 4 * whole.l1d_misses


def _rewrite(src, dst, replace: dict):
    text = src.read_text()
    for option, value in replace.items():
        text, n = re.subn(rf"^-{re.escape(option)}\s.*$", f"-{option} {value}", text, flags=re.M)
        assert n, option
    dst.write_text(text)
    return dst


def test_gtx1080_class_config_with_n_caches_imports_and_runs(shared, tmp_path, vecadd):
    """The reference's SM6_TITANX (GP102, GTX 1080-class) with its L1D and L2
    written as 'N' (non-sectored) caches and the L1D in use."""
    d = shared / "accelsim_configs" / "SM6_TITANX"
    gcfg = _rewrite(d / "gpgpusim.config", tmp_path / "gpgpusim.config", {
        "gpgpu_cache:dl1": "N:4:128:96,L:L:s:N:L,A:256:8,16:0,32",
        "gpgpu_cache:dl2": "N:64:128:16,L:B:m:L:P,A:256:64,16:0,32",
        "gpgpu_gmem_skip_L1D": "0"})
    cfg = accelsim.import_gpgpusim_config(gcfg, d / "trace.config")
    assert cfg.l1d_sector == cfg.l1d_line == 128 and cfg.l2_sector == cfg.l2_line == 128
    assert cfg.l1d_enabled
    r = accelsim.Simulator(cfg).run(vecadd)
    k = r.kernels.iloc[0]
    assert r.completed and k.cycles > 0 and k.l1d_misses > 0
    bfs = shared / "traces" / "bfs_rodinia31_sm70" / "kernelslist.g"
    if bfs.exists():
        rb = accelsim.Simulator(cfg).run(bfs, kernels="1-2")
        ran = rb.kernels[~rb.kernels.skipped]
        assert rb.completed and (ran.cycles > 0).all()


def test_prefixless_cache_string_is_non_sectored(tmp_path):
    f = tmp_path / "gpgpusim.config"
    f.write_text("-gpgpu_cache:dl2 64:128:8,L:B:m:N,A:16:4,4\n-gpgpu_n_mem 4\n")
    cfg = accelsim.import_gpgpusim_config(f)
    assert cfg.l2_sector == cfg.l2_line == 128


def test_absent_options_take_gpgpusim_defaults_and_are_listed(tmp_path):
    f = tmp_path / "gpgpusim.config"
    f.write_text("-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 1\n-gpgpu_n_mem 4\n")
    cfg = accelsim.import_gpgpusim_config(f)
    applied = dict(cfg.defaults_applied)
    assert cfg.kernel_launch_latency == 0 and applied["gpgpu_kernel_launch_latency"] == "0"
    assert cfg.sm_count == 4 and "gpgpu_n_clusters" not in applied
    assert cfg.l2_rop_latency == 85 and cfg.max_ctas_per_sm == 8 and cfg.scheduler == "gto"
    assert cfg.l2_sector == 128  # GPGPU-Sim's default L2 is not sectored
    # a value the file gives is never replaced by a default
    g = tmp_path / "b.config"
    g.write_text("-gpgpu_kernel_launch_latency 5000\n-gpgpu_n_mem 4\n")
    assert accelsim.import_gpgpusim_config(g).kernel_launch_latency == 5000
    # nor by the default of another spelling of the same option
    h = tmp_path / "c.config"
    h.write_text("-smem_latency 24\n-gpgpu_n_mem 4\n")
    assert accelsim.import_gpgpusim_config(h).shmem_latency == 24


def test_cli_import_lists_the_defaults_it_applied(tmp_path):
    f = tmp_path / "gpgpusim.config"
    f.write_text("-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 1\n-gpgpu_n_mem 4\n")
    p = subprocess.run([sys.executable, "-m", "accelsim", "config", "import", str(f)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "GPGPU-Sim's default applied" in p.stderr
    assert "-gpgpu_kernel_launch_latency 0" in p.stderr
