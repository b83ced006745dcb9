"""Results of the same microbenchmarks on real GPUs, keyed by config name.

TITANV: ../shared/data/hw/titanv_microbench/output.txt, the reference
microbenchmark suite run on a real TITAN V (the program whose line is quoted
in each comment). QV100: the published pointer-chase latencies
(shared/REFERENCE.md section 4). Only numbers measured on hardware belong here.
"""
from __future__ import annotations

HARDWARE_VALUES: dict[str, dict[str, float]] = {
    "TITANV": {
        "l1_lat": 33.7331,          # l1_lat: "L1 Latency = 33.7331 cycles"
        "shared_lat": 27.010254,    # shared_lat: "Shared Memory Latency = 27.010254 cycles"
        "l2_lat": 211.0720,         # l2_lat: "L2 Hit Latency = 211.0720 cycles"
        "dram_lat": 313.4630,       # mem_lat: "Mem latency = 313.4630 cycles"
        "l1_bw_32": 78.3484,        # l1_bw_32f: 78.3484 byte/clk/SM
        "l1_bw_64": 122.759,        # l1_bw_64f: 122.759 byte/clk/SM
        "l1_bw_128": 116.437,       # l1_bw_128: 116.437 byte/clk/SM
        "shared_bw": 126.48,        # shared_bw: 126.48 byte/clk/SM
        "l2_bw": 1365.73,           # l2_bw_128: 1365.73 byte/clk
        "dram_bw": 445.770477,      # mem_bw: 445.770477 Byte/Clk
        "fp32_flops": 126.861778,   # MaxFlops_float: 126.861778 flop/clk/SM
        "fp64_flops": 63.930252,    # MaxFlops_double: 63.930252 flop/clk/SM
        "fp16_flops": 249.334442,   # MaxFlops_half: 249.334442 flop/clk/SM
        "int32_flops": 126.886719,  # MaxFlops_int32: 126.886719 flop/clk/SM
        "fp32_lat": 4.128845,       # lat_float: 4.128845 clk
        "fp64_lat": 8.075317,       # lat_double: 8.075317 clk
        "fp16_lat": 6.180664,       # lat_half: 6.180664 clk
        "int32_lat": 4.349609,      # lat_int32: 4.349609 clk
        "sfu_lat": 21.1453,         # sfu_lat_fsqrt: 21.1453 clk
        "sfu_throughput": 15.976,   # sfu_bw_fsqrt: 15.976 flops/clk/SM
    },
    "QV100": {
        "l1_lat": 28.0,             # REFERENCE.md 4: L1 hit 28 cycles
        "shared_lat": 20.0,         # REFERENCE.md 4: shared memory ~20 cycles
        "l2_lat": 212.0,            # REFERENCE.md 4: L2 hit 212 cycles
    },
}


def hardware_value(config_name: str, bench: str) -> float | None:
    return HARDWARE_VALUES.get(config_name, {}).get(bench)
