"""Every microbenchmark by name, with its unit and default length."""
from __future__ import annotations

from functools import partial

from accelsim.microbench import alu_latency, alu_throughput, bandwidth, memory_latency
from accelsim.microbench.benchmark import LATENCY, RATE, Benchmark

CYCLES, B_CLK_SM, B_CLK, FLOP_CLK_SM, OP_CLK_SM = (
    "cycles", "B/clk/SM", "B/clk", "flop/clk/SM", "op/clk/SM")


def _all() -> list[Benchmark]:
    out = [
        Benchmark("l1_lat", CYCLES, LATENCY, memory_latency.l1_lat,
                  "L1 hit latency: one-thread pointer chase, 8 B steps in an L1-resident ring", 256),
        Benchmark("shared_lat", CYCLES, LATENCY, memory_latency.shared_lat,
                  "shared memory latency: one-thread chase of 32-bit indices", 256),
        Benchmark("l2_lat", CYCLES, LATENCY, memory_latency.l2_lat,
                  "L2 hit latency: pointer chase with L1 bypassed, ring resident in L2", 128),
        Benchmark("dram_lat", CYCLES, LATENCY, memory_latency.dram_lat,
                  "DRAM latency: pointer chase, every step a new line (L2 miss), L1 bypassed", 128),
    ]
    for bits in (32, 64, 128):
        out.append(Benchmark(f"l1_bw_{bits}", B_CLK_SM, RATE, partial(bandwidth.l1_bw, bits),
                             f"L1 hit bandwidth, {bits}-bit loads, one SM", 16))
    out += [
        Benchmark("shared_bw", B_CLK_SM, RATE, bandwidth.shared_bw,
                  "shared memory bandwidth, conflict-free 32-bit loads, one SM", 16),
        Benchmark("l2_bw", B_CLK, RATE, bandwidth.l2_bw,
                  "L2 bandwidth: 128-bit L1-bypassing loads from every SM, L2-resident buffer", 8),
        Benchmark("dram_bw", B_CLK, RATE, bandwidth.dram_bw,
                  "DRAM bandwidth: 128-bit loads from every SM, every line new", 8),
    ]
    for op, what in (("fp32", "FFMA"), ("fp64", "DFMA"), ("fp16", "HFMA2"), ("int32", "IMAD")):
        out.append(Benchmark(f"{op}_flops", FLOP_CLK_SM, RATE, partial(alu_throughput.alu_throughput, op),
                             f"peak {what} throughput, independent chains, one SM", 32))
    out.append(Benchmark("sfu_throughput", OP_CLK_SM, RATE, partial(alu_throughput.alu_throughput, "sfu"),
                         "MUFU.SQRT throughput, independent chains, one SM", 16))
    for op, what in (("fp32", "FFMA"), ("fp64", "DFMA"), ("fp16", "HFMA2"), ("int32", "IMAD"),
                     ("sfu", "MUFU.SQRT")):
        out.append(Benchmark(f"{op}_lat", CYCLES, LATENCY, partial(alu_latency.alu_latency, op),
                             f"dependent {what} latency, one thread", 256,
                             {"loop_body": alu_latency.LOOP_BODY}))
    return out


BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in _all()}


def names() -> list[str]:
    return list(BENCHMARKS)


def get(name: str) -> Benchmark:
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise KeyError(f"unknown microbenchmark {name!r}; known: {', '.join(BENCHMARKS)}") from None
