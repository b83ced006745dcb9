"""Each generation's own instructions, in traces written by the trace
generator (accelsim.tracegen.generations), with a timing property each."""
import pytest

import accelsim
from accelsim.config.check import TENSOR_FLOP_PER_INST, check_config
from accelsim.tracegen import write_workload
from accelsim.tracegen.generations import (async_copy_kernel, ldsm_kernel, tensor_kernel,
                                           tma_kernel)


def _config(name):
    return accelsim.load_config(name).with_overrides({"kernel_launch_latency": "0 cycles"})


def _cycles(cfg, kernel, tmp_path, tag):
    r = accelsim.Simulator(cfg).run(write_workload(tmp_path / tag, [kernel]))
    assert r.completed
    return int(r.kernels.cycles.iloc[0])


def _ffma_latency(cfg):
    return next(u["latency"] for u in cfg.exec_units if "sp" in u["classes"])


@pytest.mark.parametrize("name", ["A100", "RTX3070", "RTX4090", "H100"])
def test_async_copy_overlaps_independent_arithmetic(name, tmp_path):
    """LDGSTS does not hold the warp: 40 dependent FFMAs before DEPBAR hide
    under the copy, the same 40 after DEPBAR (which waits for it) do not."""
    cfg = _config(name)
    arith = 40 * _ffma_latency(cfg)
    copy_only = _cycles(cfg, async_copy_kernel(0, 0), tmp_path, "c")
    before = _cycles(cfg, async_copy_kernel(40, 0), tmp_path, "b")
    after = _cycles(cfg, async_copy_kernel(0, 40), tmp_path, "a")
    assert copy_only > arith  # the copy (DRAM) is the longer of the two
    assert before - copy_only < 0.1 * arith  # overlapped
    assert after - copy_only >= 0.9 * arith  # serialised: DEPBAR waited for the copy


@pytest.mark.parametrize("name", ["QV100", "V100_SXM2", "RTX2060", "A100", "RTX3070", "RTX4090",
                                  "H100"])
def test_tensor_throughput_matches_the_configs_tensor_rate(name, tmp_path):
    cfg = _config(name)
    v = int(cfg.sm_version)
    n1, n2 = 64, 128
    c1 = _cycles(cfg, tensor_kernel(n1, binary_version=v), tmp_path, "1")
    c2 = _cycles(cfg, tensor_kernel(n2, binary_version=v), tmp_path, "2")
    flop_per_clk_sm = 4 * (n2 - n1) * TENSOR_FLOP_PER_INST[v] / (c2 - c1)
    row = next(r for r in check_config(cfg).rows if r.quantity.startswith("tensor"))
    per_tflops = 1e12 / (cfg.sm_count * float(row.note.split()[1]) * 1e6)  # note: "at <MHz> MHz"
    expected, published_per_clk = row.simulated * per_tflops, row.published * per_tflops
    assert flop_per_clk_sm == pytest.approx(expected, rel=0.02)
    assert flop_per_clk_sm == pytest.approx(published_per_clk, rel=0.03)  # the card's rate


@pytest.mark.parametrize("name", ["RTX2060", "A100", "H100"])
def test_ldsm_feeds_the_tensor_unit_at_shared_memory_latency(name, tmp_path):
    cfg = _config(name)
    v = int(cfg.sm_version)
    c8 = _cycles(cfg, ldsm_kernel(8, binary_version=v), tmp_path, "8")
    c16 = _cycles(cfg, ldsm_kernel(16, binary_version=v), tmp_path, "16")
    per_pair = (c16 - c8) / 8
    tensor = next(u["latency"] for u in cfg.exec_units if "tensor" in u["classes"])
    # each LDSM waits for the previous HMMA's result (its address register), then
    # takes the shared-memory latency; the HMMA then takes the tensor latency
    assert cfg.shmem_latency + tensor <= per_pair <= cfg.shmem_latency + tensor + 8


def test_hopper_tma_mbarrier_and_hgmma(tmp_path):
    """A producer warp's UTMALDG + SYNCS arrive and consumer warps' SYNCS wait
    + HGMMA run to completion (SYNCS is not a CTA-wide barrier: the producer
    exits early), and HGMMA issues at the tensor units' rate."""
    cfg = _config("H100")
    c16 = _cycles(cfg, tma_kernel(16), tmp_path, "16")
    c32 = _cycles(cfg, tma_kernel(32), tmp_path, "32")
    units = next(u for u in cfg.exec_units if "tensor" in u["classes"])
    per_sub_core = units["initiation"]  # one consumer warp per sub-core
    assert (c32 - c16) / 16 == pytest.approx(per_sub_core, rel=0.05)
