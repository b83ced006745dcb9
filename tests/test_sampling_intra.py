"""Intra-kernel sampling: a long single kernel stops once its waves are
steady and is projected within its bound; short kernels run in full."""
from __future__ import annotations

import pytest

import accelsim
from accelsim.tracegen.llm import write_kernels
from accelsim.tracegen.llm.matmul import gemm

# A GEMM of many 400-CTA waves on a QV100 (5 CTAs per SM: registers), cut
# to 8 SMs here so that a wave is 40 CTAs and the test stays short.
SMALL = {"sm_count": 8}


@pytest.fixture(scope="module")
def long_gemm(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gemm")
    g = write_kernels(folder, [gemm(8, 256, 16 * 40 * 30, 0x7F0000000000, 0x7F1000000000, 0x7F2000000000)])
    cfg = accelsim.load_config("QV100").with_overrides(SMALL)
    sim = accelsim.Simulator(cfg)
    return g, sim, sim.run(g.path, progress=False)


def test_a_long_kernel_is_sampled_and_projected_within_its_bound(long_gemm):
    g, sim, full = long_gemm
    s = sim.run(g.path, progress=False, sample=accelsim.IntraKernelSampling(tolerance=0.03))
    k, f = s.kernels.iloc[0], full.kernels.iloc[0]
    assert k["status"] == "sampled" and f["status"] == "simulated"
    assert k["simulated_ctas"] < k["ctas"] and k["simulated_end_cycle"] < k["end_cycle"]
    err = abs(int(k["cycles"]) - int(f["cycles"]))
    assert err <= k["cycles_bound"] + 1 and err < 0.05 * f["cycles"]
    assert s.total_cycles == k["end_cycle"]
    # Counts are the simulated part's, and agree with the families.
    assert k["warp_instructions"] < f["warp_instructions"]
    assert int(s.counters("sm.insts").sum()) == k["warp_instructions"]
    # ... and so is its IPC (the launch latency weighs more in the shorter part).
    assert k["ipc"] == pytest.approx(k["warp_instructions"] / (k["simulated_end_cycle"] - k["launch_cycle"]))
    assert k["ipc"] == pytest.approx(f["ipc"], rel=0.15)


def test_short_kernels_run_in_full(long_gemm):
    _, sim, _ = long_gemm
    from sampling_helpers import write_tiny
    import tempfile

    g = write_tiny(tempfile.mkdtemp())
    r = sim.run(g.path, progress=False, sample=accelsim.IntraKernelSampling())
    assert set(r.kernels["status"]) == {"simulated"}
    assert (r.kernels["simulated_ctas"] == r.kernels["ctas"]).all()


def test_cli_samples_and_reports(long_gemm, capsys):
    from accelsim.cli import main

    g, _, _ = long_gemm
    assert main(["run", str(g.path), "--quiet", "--set", "sm_count=8", "--sample", "intra"]) == 0
    out = capsys.readouterr().out
    assert "sampled" in out and "intra-kernel sampling: 1 kernels" in out
    assert main(["run", str(g.path), "--quiet", "--sample", "warp"]) == 1
    assert "unknown kind 'warp'" in capsys.readouterr().err
