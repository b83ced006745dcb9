"""The microbenchmark registry: every benchmark declared once, both halves.

Each :class:`Microbenchmark` says, in one place, what a benchmark is on both
sides. The hardware half: the CUDA kernel (``cuda/<source>`` and its entry
point, compiled with the declared sizes as ``-D`` defines), how the host turns
its clocks into a number (unit, kind, work per repetition, launch shape) and
where the reference suite prints the same figure (``accelsim tune``). The
simulated half, when the simulator models it (``sim``): the generator of the
SASS the kernel compiles to, fed the *same* size expressions through ``twin``
(``accelsim microbench`` and the tuner). A size is an expression over the
target GPU's facts (``L1_BYTES // 4``), so one declaration fits every GPU and
neither side can drift from the other. ``SUITE`` holds every declaration;
``BENCHMARKS`` is the simulated view of those with a ``sim`` half.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

from accelsim.microbench import alu_latency, alu_throughput, bandwidth, dram_mix, memory_latency
from accelsim.microbench.benchmark import Benchmark, Built

CUDA_DIR = Path(__file__).resolve().parent / "cuda"

LATENCY, RATE, CURVE, HOST = "latency", "rate", "curve", "host"

KiB = 1024


@dataclass(frozen=True)
class Reference:
    """Where the reference suite's text output prints this figure: the
    program's section and a regular expression whose first group is the value."""

    program: str
    pattern: str
    # Why the reference program measures something else than this suite's
    # kernel, when it does: its figure is then reported but not fitted.
    differs: str = ""


@dataclass(frozen=True)
class Simulated:
    """The simulated half: ``build(hw, reps, **options)`` generates the trace
    of what the kernel compiles to; ``reps`` is the timed length of the
    shorter of the two runs (``accelsim.microbench.method``); ``options`` are
    the generator's default sizes."""

    build: Callable[..., Built]
    reps: int
    options: dict = field(default_factory=dict)
    single_run: bool = False  # one run of ``reps``, not two lengths (Benchmark.single_run)


@dataclass(frozen=True)
class Microbenchmark:
    name: str
    unit: str
    kind: str              # latency: cycles per step; rate: work per cycle; curve: a sweep; host: host-timed
    source: str            # file in cuda/
    kernel: str            # entry point (extern "C")
    defines: dict          # NAME -> size expression (see ``evaluate``)
    description: str
    grid: str | int = 1          # blocks (expression)
    block: str | int = 1         # threads per block (expression)
    buffer: str | int = 4096     # bytes of the benchmark's buffer (expression)
    per_rep: str | int = 1       # latency: dependent steps per rep; rate: work per thread per rep
    per_sm: bool = False   # rate divided by the SMs the grid covers
    reps: int = 1024
    init: str | None = None          # kernel run once before the timed one (same defines)
    sweep: tuple | None = None       # (define, [expressions]) for curves
    reference: Reference | None = None
    twin: dict = field(default_factory=dict)  # generator option -> define whose value it takes
    modelled: str = ""     # why the simulator does not reproduce it, when it does not
    analyse: str = ""      # a named host-side analysis instead of the kind's arithmetic (tune/driver.py)
    sim: Simulated | None = None  # the simulated twin, when the simulator models it

    @property
    def has_twin(self) -> bool:
        return self.sim is not None

    def simulated(self) -> Benchmark:
        """The simulated half as the generator-side :class:`Benchmark`."""
        if self.sim is None:
            raise KeyError(f"microbenchmark {self.name!r} has no simulated twin")
        return Benchmark(self.name, self.unit, self.kind, self.sim.build, self.description, self.sim.reps,
                         self.sim.options, self.sim.single_run)

    def sizes(self, facts: dict) -> dict:
        """Every define evaluated for a GPU's ``facts``."""
        return {k: evaluate(v, facts) for k, v in self.defines.items()}

    def twin_options(self, facts: dict) -> dict:
        """The simulated twin's generator options, from the same defines."""
        sizes = self.sizes(facts)
        return {opt: sizes[define] for opt, define in self.twin.items()}


def evaluate(expr, facts: dict) -> int:
    """A size expression (an int, or arithmetic over the GPU facts' names)."""
    if isinstance(expr, int):
        return expr
    return int(eval(str(expr), {"__builtins__": {"min": min, "max": max}}, dict(facts)))  # noqa: S307


def facts_from_hwdef(hw) -> dict:
    """The names size expressions use, from ``microbench.HardwareDef``."""
    return {"SM_COUNT": hw.sm_count, "WARP": hw.warp_size, "MAX_THREADS": hw.max_threads_per_cta,
            "L1_BYTES": hw.l1d_bytes, "L2_BYTES": hw.l2_bytes, "LINE": hw.l1d_line,
            "SECTOR": hw.sector_bytes, "SHMEM_PER_CTA": hw.shmem_per_cta, "SM_THREADS": hw.max_threads_per_sm}


def _ref(program: str, pattern: str, differs: str = "") -> Reference:
    return Reference(program, pattern, differs)


# as many blocks of the largest size as an SM holds, on every SM (the reference suite's BLOCKS_NUM)
_FULL_GRID = "SM_COUNT * max(1, SM_THREADS // MAX_THREADS)"
_NUM = r"([-+]?\d+(?:\.\d+)?)"


def _memory() -> list[Microbenchmark]:
    chase: dict[str, Any] = {"source": "chase.cu", "init": "chase_init", "per_rep": 1}
    return [
        Microbenchmark("l1_lat", "cycles", LATENCY, kernel="l1_lat",
                defines={"FOOTPRINT": "min(32 * 1024, L1_BYTES // 4)", "STRIDE": 8},
                buffer="FOOTPRINT", twin={"footprint": "FOOTPRINT"},
                description="L1 hit latency: one-thread pointer chase, 8 B steps, L1-resident ring",
                reference=_ref("l1_lat", r"L1 Latency\s*=\s*" + _NUM), **chase,
                sim=Simulated(memory_latency.l1_lat, 256)),
        Microbenchmark("l2_lat", "cycles", LATENCY, kernel="l2_lat",
                defines={"FOOTPRINT": "min(32 * 1024, L2_BYTES // 8)", "STRIDE": "SECTOR"},
                buffer="FOOTPRINT", twin={"footprint": "FOOTPRINT"},
                description="L2 hit latency: pointer chase with L1 bypassed (ld.global.cg)",
                reference=_ref("l2_lat", r"L2 Hit Latency\s*=\s*" + _NUM), **chase,
                sim=Simulated(memory_latency.l2_lat, 128)),
        Microbenchmark("dram_lat", "cycles", LATENCY, kernel="dram_lat", reps=512,
                defines={"FOOTPRINT": "(4096 + LINE) * 512", "STRIDE": "4096 + LINE"},
                buffer="FOOTPRINT", twin={"stride": "STRIDE"},
                description="DRAM latency: chase where every step is a line never touched",
                reference=_ref("mem_lat", r"Mem latency\s*=\s*" + _NUM), **chase,
                sim=Simulated(memory_latency.dram_lat, 128)),
        Microbenchmark("shared_lat", "cycles", LATENCY, "shared.cu", "shared_lat",
                defines={"SHMEM_WORDS": "min(4096, SHMEM_PER_CTA) // 4"},
                twin={}, description="shared memory latency: one-thread chase of 32-bit indices",
                reference=_ref("shared_lat", r"Shared Memory Latency\s*=\s*" + _NUM),
                sim=Simulated(memory_latency.shared_lat, 256)),
        Microbenchmark("l1_size", "cycles", CURVE, kernel="l1_size", reps=4096,
                defines={"FOOTPRINT": 8 * KiB, "STRIDE": 128}, buffer="FOOTPRINT",
                sweep=("FOOTPRINT", [f"{k} * 1024" for k in (16, 32, 64, 96, 112, 128, 160, 256)]),
                description="L1 capacity: chase cost against footprint (hit below the size)", **chase),
        Microbenchmark("l2_size", "cycles", CURVE, kernel="l2_size", reps=4096,
                defines={"FOOTPRINT": "L2_BYTES", "STRIDE": 128}, buffer="FOOTPRINT",
                sweep=("FOOTPRINT", ["L2_BYTES // 2", "L2_BYTES * 3 // 4", "L2_BYTES",
                                     "L2_BYTES * 5 // 4", "L2_BYTES * 3 // 2", "L2_BYTES * 2"]),
                description="L2 capacity: L1-bypassing chase cost against footprint", **chase),
        Microbenchmark("l1_sector", "cycles", CURVE, kernel="l1_sector", reps=4096,
                defines={"FOOTPRINT": "4 * L1_BYTES", "STRIDE": 8}, buffer="FOOTPRINT",
                sweep=("STRIDE", [8, 16, 32, 64, 128, 256]),
                description="L1 fetch granularity: chase over 4x L1, stride swept", **chase),
        Microbenchmark("l2_sector", "cycles", CURVE, kernel="l2_sector", reps=4096,
                defines={"FOOTPRINT": "4 * L2_BYTES", "STRIDE": 8}, buffer="FOOTPRINT",
                sweep=("STRIDE", [8, 16, 32, 64, 128, 256]),
                description="L2 fetch granularity: L1-bypassing chase over 4x L2, stride swept", **chase),
        Microbenchmark("l1_line", "cycles", CURVE, kernel="l1_line", reps=4096,
                defines={"FOOTPRINT": "2 * L1_BYTES", "STRIDE": 8}, buffer="FOOTPRINT",
                sweep=("STRIDE", [32, 64, 128, 256, 512]),
                description="L1 line size: chase over 2x L1, stride swept (fits from 2x the line)",
                **chase),
        Microbenchmark("l2_line", "cycles", CURVE, kernel="l2_line", reps=4096,
                defines={"FOOTPRINT": "2 * L2_BYTES", "STRIDE": 8}, buffer="FOOTPRINT",
                sweep=("STRIDE", [32, 64, 128, 256, 512]),
                description="L2 line size: L1-bypassing chase over 2x L2, stride swept", **chase),
        Microbenchmark("l1_assoc", "cycles", CURVE, kernel="l1_assoc", reps=4096,
                defines={"FOOTPRINT": "L1_BYTES // 4", "STRIDE": "L1_BYTES // 4"},
                buffer="FOOTPRINT",
                sweep=("FOOTPRINT", [f"L1_BYTES // 4 * {w}" for w in (2, 4, 8, 16, 32, 64, 128, 256)]),
                description="L1 associativity: one-set chase, slot count swept (fits up to the ways)",
                **chase),
    ]


def _bandwidth() -> list[Microbenchmark]:
    out = []
    for bits in (32, 64, 128):
        out.append(Microbenchmark(
            f"l1_bw_{bits}", "B/clk/SM", RATE, "bandwidth.cu", f"l1_bw_{bits}",
            defines={"FOOTPRINT": "L1_BYTES // 4", "UNROLL": 4 if bits == 32 else 2 if bits == 64 else 1},
            block="MAX_THREADS", buffer="FOOTPRINT", per_rep=f"UNROLL * {bits // 8}", per_sm=True,
            reps=256, twin={"unroll": "UNROLL"},
            description=f"L1 hit bandwidth, {bits}-bit loads, one block on one SM",
            reference=_ref({32: "l1_bw_32f", 64: "l1_bw_64f", 128: "l1_bw_128"}[bits],
                           r"L1 bandwidth\s*=\s*" + _NUM),
            sim=Simulated(partial(bandwidth.l1_bw, bits), 16)))
    for bits in (32, 64):
        out.append(Microbenchmark(
            f"l2_bw_{bits}", "B/clk", RATE, "bandwidth.cu", f"l2_bw_{bits}",
            defines={"FOOTPRINT": "L2_BYTES // 4", "UNROLL": 4}, grid="SM_COUNT", block=256,
            buffer="FOOTPRINT", per_rep=f"UNROLL * {bits // 8}", reps=64,
            description=f"L2 bandwidth, {bits}-bit L1-bypassing loads from every SM",
            reference=_ref(f"l2_bw_{bits}f", r"L2 bandwidth\s*=\s*" + _NUM)))
    out += [
        Microbenchmark("l2_bw", "B/clk", RATE, "bandwidth.cu", "l2_bw",
                defines={"FOOTPRINT": "L2_BYTES // 4", "UNROLL": 4}, grid="SM_COUNT", block=256,
                buffer="FOOTPRINT", per_rep="UNROLL * 16", reps=64, twin={"unroll": "UNROLL"},
                description="L2 bandwidth, 128-bit L1-bypassing loads from every SM",
                reference=_ref("l2_bw_128", r"L2 bandwidth\s*=\s*" + _NUM),
                sim=Simulated(bandwidth.l2_bw, 8)),
        Microbenchmark("dram_bw", "B/clk", RATE, "bandwidth.cu", "dram_bw",
                defines={"FOOTPRINT": "8 * L2_BYTES", "UNROLL": 4}, grid="SM_COUNT", block=256,
                buffer="FOOTPRINT", per_rep="UNROLL * 16", reps=16, twin={"unroll": "UNROLL"},
                description="DRAM bandwidth, 128-bit loads from every SM, every line new",
                reference=_ref("mem_bw", r"Mem BW\s*=\s*" + _NUM + r"\s*\(Byte/Clk\)",
                               differs="the reference suite's mem_bw reads 5 and writes 1 array of 2 x L2 "
                                       "and divides by thread 0's clock interval; this kernel (and its "
                                       "twin) streams reads"),
                sim=Simulated(bandwidth.dram_bw, 8)),
        Microbenchmark("mem_bw", "B/clk", RATE, "dram_mix.cu", "mem_bw",
                defines={"ARRAY": "2 * L2_BYTES", "READS": 5}, grid=_FULL_GRID, block="MAX_THREADS",
                buffer="6 * 2 * L2_BYTES", per_rep=f"6 * 2 * L2_BYTES // ({_FULL_GRID} * MAX_THREADS)", reps=1,
                twin={"reads": "READS", "array_bytes": "ARRAY"},
                description="the reference suite's mem_bw: one pass of 5 float4 loads and 1 store per thread and "
                            "step over arrays of 2 x L2, every SM full; bytes of all six arrays per cycle",
                reference=_ref("mem_bw", r"Mem BW\s*=\s*" + _NUM + r"\s*\(Byte/Clk\)",
                               differs="the suite counts mem_bw's cycles at the card's clock, which it does not "
                                       "record; accelsim config check compares it at the TITAN V's boost clock "
                                       "(docs/fidelity.md)"),
                sim=Simulated(dram_mix.suite_mem_bw, 1, single_run=True)),
        Microbenchmark("dram_rw_bw", "B/clk", RATE, "dram_mix.cu", "dram_rw_bw",
                defines={"FOOTPRINT": "8 * L2_BYTES", "READS": 3}, grid="SM_COUNT", block="MAX_THREADS",
                buffer="4 * 8 * L2_BYTES", per_rep="4 * 8", reps=32, twin={"reads": "READS"},
                description="DRAM bandwidth of a read/write stream: READS double loads and one store per "
                            "thread and step, every element new, once L2 holds only dirty lines",
                sim=Simulated(dram_mix.dram_rw_bw, 32)),
        Microbenchmark("shared_bw", "B/clk/SM", RATE, "shared.cu", "shared_bw",
                defines={"SHMEM_WORDS": "min(32 * 1024, SHMEM_PER_CTA) // 4", "UNROLL": 4},
                block="MAX_THREADS", per_rep="UNROLL * 4", per_sm=True, reps=256,
                twin={"unroll": "UNROLL"},
                description="shared memory bandwidth, conflict-free 32-bit chains, one SM",
                reference=_ref("shared_bw", r"Shared Memory Bandwidth\s*=\s*" + _NUM),
                sim=Simulated(bandwidth.shared_bw, 16)),
        Microbenchmark("shared_bw_64", "B/clk/SM", RATE, "shared.cu", "shared_bw_64",
                defines={"SHMEM_WORDS": "min(32 * 1024, SHMEM_PER_CTA) // 4", "UNROLL": 4},
                block="MAX_THREADS", per_rep="UNROLL * 8", per_sm=True, reps=256,
                description="shared memory bandwidth, 64-bit chains, one SM",
                reference=_ref("shared_bw_64", r"Shared Memory Bandwidth\s*=\s*" + _NUM)),
        Microbenchmark("shared_banks", "cycles", CURVE, "shared.cu", "shared_banks",
                defines={"SHMEM_WORDS": 4096, "BANK_STRIDE": 1}, block="WARP",
                sweep=("BANK_STRIDE", [1, 2, 4, 8, 16, 32, 64]),
                description="shared memory banks: warp load cost against the lanes' word stride"),
    ]
    return out


def _policies() -> list[Microbenchmark]:
    return [
        Microbenchmark("l1_write_policy", "cycles", LATENCY, "memory_policy.cu", "l1_write_policy",
                defines={"LINES": 64}, buffer="64 * 128",
                description="store then load the same word: L1 hit if L1 allocates on write"),
        Microbenchmark("l2_write_policy", "cycles", LATENCY, "memory_policy.cu", "l2_write_policy",
                defines={}, buffer="4096 * 1024", reps=1024,
                description="partial-sector store then load, L1 bypassed: L2 hit if write-validate"),
        Microbenchmark("coalescing_grain", "cycles", CURVE, "memory_policy.cu", "coalescing_grain",
                defines={"STRIDE": 4}, block="WARP", buffer="32 * 512 * 1024 + 4096", reps=1024,
                sweep=("STRIDE", [4, 8, 16, 32, 64, 128]),
                description="warp load cost against the lanes' byte stride (sectors per request)"),
        Microbenchmark("l1_streaming", "B/clk/SM", RATE, "memory_policy.cu", "l1_streaming",
                defines={"FOOTPRINT": "2 * L1_BYTES"}, block="MAX_THREADS", buffer="FOOTPRINT",
                per_rep=4, per_sm=True, reps=256,
                description="miss bandwidth of .ca loads streaming 2x the L1 (streaming L1 keeps L2 rate)"),
        Microbenchmark("l1_mshr", "cycles", CURVE, "memory_policy.cu", "l1_mshr",
                defines={}, block=32, buffer="32 * 1024 * 4096", reps=16,
                sweep=("BLOCK", [32, 64, 128, 256, 512, 1024]),
                description="round time of one independent miss per thread against threads in flight"),
    ]


def _alu() -> list[Microbenchmark]:
    out = []
    refs_lat = {"fp32": ("lat_float", "float-precision FPU latency"),
                "fp64": ("lat_double", "double-precision DPU latency"),
                "fp16": ("lat_half", "fpu16 latency"), "int32": ("lat_int32", "int32 latency"),
                "sfu": ("sfu_lat_fsqrt", "SFU fast sqrt latency")}
    refs_thr = {"fp32": ("MaxFlops_float", r"FLOP per SM"), "fp64": ("MaxFlops_double", r"DPU FLOP per SM"),
                "fp16": ("MaxFlops_half", r"half FLOP per SM"), "int32": ("MaxFlops_int32", r"int32 FLOP per SM"),
                "sfu": ("sfu_bw_fsqrt", r"SFU fast sqrt bw")}
    flops = {"fp32": 2, "fp64": 2, "fp16": 4, "int32": 2, "sfu": 1}
    for op in ("fp32", "fp64", "fp16", "int32", "sfu"):
        program, label = refs_lat[op]
        out.append(Microbenchmark(
            f"{op}_lat", "cycles", LATENCY, "alu.cu", f"{op}_lat", defines={"STEPS": 4},
            per_rep="STEPS", reps=4096,
            description=f"dependent {op} latency, one thread (4 per loop iteration, nvcc unrolls 4x)",
            reference=_ref(program, re_label(label) + r"\s*=\s*" + _NUM),
            sim=Simulated(partial(alu_latency.alu_latency, op), 256, {"loop_body": alu_latency.LOOP_BODY})))
        program, label = refs_thr[op]
        name = "sfu_throughput" if op == "sfu" else f"{op}_flops"
        out.append(Microbenchmark(
            name, "op/clk/SM" if op == "sfu" else "flop/clk/SM", RATE, "alu.cu", f"{op}_flops",
            defines={"CHAINS": 4}, block="MAX_THREADS", per_rep=f"CHAINS * {flops[op]}", per_sm=True,
            reps=1024, twin={"chains": "CHAINS"},
            description=f"peak {op} throughput, 4 independent chains per thread, one SM",
            reference=_ref(program, re_label(label) + r"\s*=\s*" + _NUM),
            sim=Simulated(partial(alu_throughput.alu_throughput, op), 16 if op == "sfu" else 32)))
    out += [
        Microbenchmark("tensor_lat", "cycles", LATENCY, "alu.cu", "tensor_lat", defines={}, block="WARP",
                reps=1024, description="dependent mma.sync m8n8k4 latency, one warp"),
        Microbenchmark("tensor_flops", "flop/clk/SM", RATE, "alu.cu", "tensor_flops", defines={"CHAINS": 4},
                block="MAX_THREADS", per_rep="CHAINS * 2 * 8 * 8 * 4 // 32", per_sm=True, reps=256,
                description="mma.sync m8n8k4 throughput, 4 independent accumulators per warp"),
    ]
    return out


def _sync() -> list[Microbenchmark]:
    return [
        Microbenchmark("atomic_lat", "cycles", LATENCY, "atomics_launch.cu", "atomic_lat", defines={},
                reps=1024, description="dependent atomicAdd latency, one thread",
                reference=_ref("atomic_add_lat", r"Atomic int32 latency\s*=\s*" + _NUM)),
        Microbenchmark("atomic_bw", "op/clk", RATE, "atomics_launch.cu", "atomic_bw",
                defines={"FOOTPRINT": "1024 * 1024"}, grid="SM_COUNT", block=1024,
                buffer="FOOTPRINT", per_rep=1, reps=256,
                description="atomicAdd throughput, every thread on its own word"),
        Microbenchmark("atomic_bw_conflict", "op/clk", RATE, "atomics_launch.cu", "atomic_bw_conflict",
                defines={}, grid="SM_COUNT", block=1024, per_rep=1, reps=16,
                description="atomicAdd throughput, the whole grid on one word"),
        Microbenchmark("kernel_lat", "cycles", HOST, "atomics_launch.cu", "kernel_lat", defines={},
                reps=256, description="launch-to-launch time of an empty kernel (host events), in core cycles",
                reference=_ref("kernel_lat", r"Kernel Launch Latency\s*=\s*" + _NUM)),
        Microbenchmark("cta_lat", "cycles", LATENCY, "atomics_launch.cu", "cta_lat", defines={},
                grid="SM_COUNT * 64", block="WARP", reps=1, analyse="cta_gaps",
                description="per-SM start clocks of many one-warp blocks: gaps = CTA launch cost"),
    ]


def re_label(label: str) -> str:
    import re

    return re.escape(label)


def _all() -> list[Microbenchmark]:
    return _memory() + _bandwidth() + _policies() + _alu() + _sync()


SUITE: dict[str, Microbenchmark] = {b.name: b for b in _all()}
# The simulated view: the generator-side Benchmark of every declaration with a twin.
BENCHMARKS: dict[str, Benchmark] = {b.name: b.simulated() for b in SUITE.values() if b.sim is not None}


def names() -> list[str]:
    """The simulated benchmarks (``accelsim microbench``), in registry order."""
    return list(BENCHMARKS)


def hardware_names() -> list[str]:
    """Every benchmark (each has its CUDA kernel: ``accelsim tune``), in registry order."""
    return list(SUITE)


def get(name: str) -> Benchmark:
    """A simulated benchmark by name."""
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise KeyError(f"unknown microbenchmark {name!r}; known: {', '.join(BENCHMARKS)}") from None


def declaration(name: str) -> Microbenchmark:
    """Any benchmark's declaration (both halves) by name."""
    try:
        return SUITE[name]
    except KeyError:
        raise KeyError(f"unknown microbenchmark {name!r}; known: {', '.join(SUITE)}") from None
