"""microbench generators: the traces they write, read back with open_trace
(no simulation here): instruction counts, dependency chains, addresses."""
from __future__ import annotations

import pytest

from accelsim import load_config, open_trace
from accelsim.microbench import BENCHMARKS, HardwareDef, Measurement, get, names
from accelsim.microbench.alu_ops import OPS
from accelsim.tracegen import write_workload

FLAG_BYPASS_L1 = 8


@pytest.fixture(scope="module")
def hw():
    return HardwareDef.from_config(load_config("TITANV"))


def read_back(tmp_path, built):
    """Rows (opcode, dst, srcs, addrs, mem_space, flags, access_bytes) per warp of
    block 0; opcodes are the base mnemonics the reader keeps."""
    k = open_trace(write_workload(tmp_path, built.commands))[0]
    recs = k.block(0)
    warps: dict[int, list] = {}
    for r in recs:
        nsrc = int(r["nsrc"])
        lanes = [i for i in range(32) if int(r["mask"]) >> i & 1]
        addrs = [int(r["addrs"][i]) for i in lanes] if int(r["flags"]) & 16 else []
        warps.setdefault(int(r["warp"]), []).append(
            (k.opcodes[r["opcode"]], int(r["dst"]), tuple(int(s) for s in r["src"][:nsrc]), addrs,
             k.mem_spaces[r["mem_space"]], int(r["flags"]), int(r["access_bytes"])))
    return k, warps


def opcode_rows(rows, prefix):
    return [r for r in rows if r[0].startswith(prefix)]


def test_hardware_def_from_config(hw):
    assert (hw.sm_count, hw.warp_size, hw.l1d_bytes) == (80, 32, 128 * 1024)
    assert hw.l2_bytes == 4608 * 1024 and hw.shmem_per_cta == 48 * 1024
    assert hw.max_threads_per_cta == 1024


def test_registry_lists_every_benchmark_with_its_unit():
    expected = {"l1_lat", "shared_lat", "l2_lat", "dram_lat", "l1_bw_32", "l1_bw_64", "l1_bw_128",
                "shared_bw", "l2_bw", "dram_bw", "mem_bw", "dram_rw_bw", "fp32_flops", "fp64_flops", "fp16_flops",
                "int32_flops", "sfu_throughput", "fp32_lat", "fp64_lat", "fp16_lat", "int32_lat",
                "sfu_lat"}
    assert set(names()) == expected
    assert get("l1_bw_64").unit == "B/clk/SM" and get("l2_bw").unit == "B/clk"
    assert get("fp16_flops").unit == "flop/clk/SM" and get("l1_lat").unit == "cycles"
    with pytest.raises(KeyError, match="unknown microbenchmark"):
        get("nope")


def test_measurement_error():
    m = Measurement("x", 110.0, "cycles", hw_value=100.0)
    assert m.error_pct == pytest.approx(10.0)
    assert Measurement("x", 1.0, "cycles").error_pct is None
    assert m.to_dict()["error_pct"] == pytest.approx(10.0)
    assert "error +10.0%" in str(m)


def test_l1_chase_is_one_dependent_chain(tmp_path, hw):
    built = get("l1_lat").generate(hw, 40, footprint=1024)
    k, warps = read_back(tmp_path, built)
    assert k.info.grid == (1, 1, 1) and k.info.block == (1, 1, 1)
    rows = warps[0]
    loads = opcode_rows(rows, "LDG")
    assert len(loads) == 1024 // 8 + 40          # warm-up pass + timed pass
    assert built.work == 40
    for _op, dst, srcs, addrs, space, flags, size in loads:
        assert size == 8 and srcs == (dst,) and len(addrs) == 1   # p = *p, 64-bit
        assert not flags & FLAG_BYPASS_L1 and space == "global"
    # Each iteration: the load, then counter, compare, branch (compiled loop).
    first = rows.index(loads[0])
    assert [r[0] for r in rows[first:first + 4]] == ["LDG", "IADD3", "ISETP", "BRA"]
    addrs = [r[3][0] for r in loads]
    warm, timed = addrs[:128], addrs[128:]
    assert len(set(warm)) == 128 and max(warm) - min(warm) == 1024 - 8
    assert set(timed) <= set(warm)              # timed steps only revisit warmed slots
    assert rows[-1][0] == "EXIT"


def test_l1_chase_is_sized_from_the_l1(tmp_path):
    small = HardwareDef.from_config(load_config("TITANV").with_overrides(
        {"unified_l1_shmem_size": 16 * 1024, "shmem_carveouts": [0]}))
    _, warps = read_back(tmp_path, get("l1_lat").generate(small, 8))
    assert len(opcode_rows(warps[0], "LDG")) == (16 * 1024 // 4) // 8 + 8


def test_l2_chase_bypasses_l1_one_sector_per_step(tmp_path, hw):
    _, warps = read_back(tmp_path, get("l2_lat").generate(hw, 16, footprint=2048))
    loads = opcode_rows(warps[0], "LDG")
    assert all(r[5] & FLAG_BYPASS_L1 for r in loads)
    addrs = [r[3][0] for r in loads]
    assert len(addrs) == 2048 // 32 + 16
    assert {b - a for a, b in zip(addrs[:63], addrs[1:64])} == {32}


def test_dram_chase_touches_a_new_line_every_step(tmp_path, hw):
    _, warps = read_back(tmp_path, get("dram_lat").generate(hw, 50))
    loads = opcode_rows(warps[0], "LDG")
    assert len(loads) == 50                      # no warm-up: nothing to warm
    lines = {r[3][0] // 128 for r in loads}
    assert len(lines) == 50 and all(r[5] & FLAG_BYPASS_L1 for r in loads)


def test_shared_chase_initialises_then_chases(tmp_path, hw):
    built = get("shared_lat").generate(hw, 30, footprint=512)
    k, warps = read_back(tmp_path, built)
    assert k.info.shmem == 512
    rows = warps[0]
    stores, loads = opcode_rows(rows, "STS"), opcode_rows(rows, "LDS")
    assert len(stores) == 128 and len(loads) == 30
    assert all(r[4] == "shared" and r[2] == (r[1],) for r in loads)
    assert rows.index(opcode_rows(rows, "BAR")[0]) < rows.index(loads[0])
    assert [r[3][0] for r in loads[:3]] == [0, 4, 8]


@pytest.mark.parametrize("name, opcode", [("fp32_lat", "FFMA"), ("fp64_lat", "DFMA"),
                                          ("fp16_lat", "HFMA2"), ("int32_lat", "IMAD"),
                                          ("sfu_lat", "MUFU")])
def test_alu_latency_is_a_dependent_chain(tmp_path, hw, name, opcode):
    _, warps = read_back(tmp_path, get(name).generate(hw, 25))
    ops = [r for r in warps[0] if r[0] == opcode]
    assert len(ops) == 25
    dst = ops[0][1]
    assert all(r[1] == dst and r[2][0] == dst for r in ops)  # reads what the previous wrote


@pytest.mark.parametrize("name, op", [("fp32_flops", "fp32"), ("fp64_flops", "fp64"),
                                      ("fp16_flops", "fp16"), ("int32_flops", "int32"),
                                      ("sfu_throughput", "sfu")])
def test_alu_throughput_has_independent_chains(tmp_path, hw, name, op):
    built = get(name).generate(hw, 6, chains=4)
    k, warps = read_back(tmp_path, built)
    assert k.info.grid == (1, 1, 1) and len(warps) == 32 and built.sms == 1
    ops = [r for r in warps[5] if r[0] == OPS[op].opcode.split(".")[0]]
    assert len(ops) == 6 * 4
    # Four consecutive ops write four different registers, none reads another's result.
    window = ops[:4]
    assert len({r[1] for r in window}) == 4
    assert all(r[2][0] == r[1] for r in window)
    assert built.work == OPS[op].flops * 1024 * 6 * 4


@pytest.mark.parametrize("bits", [32, 64, 128])
def test_l1_bandwidth_loads_are_coalesced_and_resident(tmp_path, hw, bits):
    built = get(f"l1_bw_{bits}").generate(hw, 3, unroll=2)
    _, warps = read_back(tmp_path, built)
    width = bits // 8
    loads = [r for r in warps[3] if r[0] == "LDG"]
    assert all(r[6] == width and not r[5] & FLAG_BYPASS_L1 for r in loads)
    rounds = max(1, (hw.l1d_bytes // 4) // (1024 * width))
    assert len(loads) == rounds + 3 * 2
    for r in loads:                               # 32 consecutive elements per warp load
        assert [b - a for a, b in zip(r[3], r[3][1:])] == [width] * 31
    warm = {a for r in loads[:rounds] for a in r[3]}
    timed = {a for r in loads[rounds:] for a in r[3]}
    assert timed <= warm                          # the timed loads hit what was warmed
    assert built.work == 3 * 2 * 1024 * width


def test_l1_bandwidth_loop_tail_once_per_compiled_loop_body(hw):
    """nvcc unrolls the real kernels' timed loop 32x: one counter/compare/
    branch per 32 iterations, not per iteration."""
    def branches(reps):
        warp = get("l1_bw_64").generate(hw, reps).commands[0].blocks[0].warps[0]
        return sum(1 for inst in warp if inst.opcode == "BRA")

    assert branches(64) - branches(32) == 1
    assert branches(32) - branches(31) == 0  # the last iteration always closes the loop


def test_shared_bandwidth_is_conflict_free_dependent_chases(tmp_path, hw):
    built = get("shared_bw").generate(hw, 2, unroll=4)
    k, warps = read_back(tmp_path, built)
    assert k.info.shmem == 32 * 1024 and len(warps) == 32
    rows = warps[7]
    loads, stores = opcode_rows(rows, "LDS"), opcode_rows(rows, "STS")
    assert len(loads) == 8 and len(stores) == 8192 // 1024   # each thread initialises its words
    assert all(r[4] == "shared" and r[2] == (r[1],) for r in loads)  # i = s[i]
    for r in loads:                               # one word per bank
        assert sorted((a // 4) % 32 for a in r[3]) == list(range(32))
    # Lane l of warp 7 starts at its own index and strides by the block size.
    assert [r[3][0] for r in loads[:2]] == [4 * (7 * 32), 4 * (7 * 32 + 1024)]
    assert rows.index(opcode_rows(rows, "BAR")[0]) < rows.index(loads[0])
    assert built.work == 2 * 4 * 1024 * 4


@pytest.mark.parametrize("bits, per_iteration", [(32, 4), (64, 2), (128, 1)])
def test_l1_bandwidth_unrolls_like_the_real_kernels(tmp_path, hw, bits, per_iteration):
    built = get(f"l1_bw_{bits}").generate(hw, 5)
    assert built.work == 5 * per_iteration * 1024 * bits // 8


def test_l2_and_dram_bandwidth_use_every_sm(tmp_path, hw):
    small = HardwareDef.from_config(load_config("TITANV").with_overrides({"sm_count": 4}))
    for name in ("l2_bw", "dram_bw"):
        built = get(name).generate(small, 2, threads=64)
        k, warps = read_back(tmp_path / name, built)
        assert k.info.grid == (4, 1, 1)
        loads = opcode_rows(warps[0], "LDG")
        assert all(r[5] & FLAG_BYPASS_L1 and len(r[3]) == 32 for r in loads)
        assert built.work == 2 * 4 * 4 * 64 * 16
    # DRAM: no address is ever read twice.
    built = get("dram_bw").generate(small, 2, threads=64)
    k = open_trace(write_workload(tmp_path / "d2", built.commands))[0]
    seen = []
    for _, recs in k.blocks():
        for r in recs:
            if int(r["flags"]) & 16 and int(r["flags"]) & 1:
                seen += [int(a) for a in r["addrs"]]
    assert len(seen) == len(set(seen))


def test_every_benchmark_generates(tmp_path, hw):
    small = HardwareDef.from_config(load_config("TITANV").with_overrides({"sm_count": 2}))
    for name, bench in BENCHMARKS.items():
        built = bench.generate(small, 2)
        assert built.work > 0 and built.commands, name
