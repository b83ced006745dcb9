"""Imports the reference microbenchmark suite's text output (what its
run_all script prints: one ``running ./PROGRAM microbenchmark`` section per
program) into a :class:`HwProfile`. Every figure the suite declares a
``Reference`` for is read from its program's section exactly as printed;
device facts come from the deviceQuery / system / memory / L2 sections."""
from __future__ import annotations

import re
from pathlib import Path

from accelsim._files import refuse_non_file
from accelsim.tune.profile import HwProfile, Measured, ProfileFormatError
from accelsim.microbench.suite import SUITE

_SECTION = re.compile(r"^running \./(\S+) microbenchmark\s*$", re.M)


def sections(text: str) -> dict[str, str]:
    """Program name -> the text it printed."""
    marks = list(_SECTION.finditer(text))
    return {m.group(1): text[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(text)]
            for i, m in enumerate(marks)}


def _first(pattern: str, text: str, cast=float):
    m = re.search(pattern, text)
    return cast(m.group(1)) if m else None


def _device(secs: dict[str, str]) -> dict:
    query = secs.get("deviceQuery", "").split("//////")[0]  # first device listed: the one run on
    system, mem, l2 = secs.get("system_config", ""), secs.get("mem_config", ""), secs.get("l2_config", "")
    shd = secs.get("shd_config", "")
    dev = {
        "name": _first(r'Device\s*:\s*"([^"]+)"', query, str) or _first(r"Device Name = (.+)", system, str),
        "compute_capability": _first(r"CUDA version number\s*:\s*(\S+)", query, str),
        "sm_count": _first(r"Multiprocessors Count\s*:\s*(\d+)", query, int),
        "max_clock_mhz": _first(r"GPU Max Clock rate\s*:?=?\s*(\d+)", query + system, float),
        "base_clock_mhz": _first(r"GPU Base Clock rate = (\d+)", system, float),
        "max_threads_per_sm": _first(r"Maximum number of threads per multiprocessor:\s*(\d+)", query, int),
        "registers_per_sm": _first(r"Registers per multiprocessor\s*:\s*(\d+)", query, int),
        "shared_per_sm": _first(r"Shared memory per multiprocessor\s*:\s*(\d+)", query, int),
        "shared_per_block": _first(r"Shared memory per block\s*=?:?\s*(\d+)", query + shd, int),
        "warp_size": _first(r"Warp size\s*:\s*(\d+)", query, int),
        "l2_bytes": _mb(_first(r"L2 Cache Size\s*[:=]\s*(\d+) MB", query + l2, int)),
        "l2_banks": _first(r"L2 Banks number = (\d+)", l2, int),
        "memory_clock_mhz": _first(r"Memory Clock rate\s*[:=]\s*(\d+)", mem + query, float),
        "memory_bus_width_bits": _first(r"Memory Bus Width\s*[:=]\s*(\d+)", mem + query, int),
        "memory_type": _first(r"Memory type = (\S+)", mem, str),
        "memory_channels": _first(r"Memory channels = (\d+)", mem, int),
    }
    timing = _first(r"-gpgpu_dram_timing_opt (\S+)", mem, str)
    if timing:
        dev["dram_timing"] = {k: int(v) for k, v in (p.split("=") for p in timing.split(":"))}
    return {k: v for k, v in dev.items() if v is not None}


def _mb(value):
    return None if value is None else value * 1024 * 1024


def import_reference(path) -> HwProfile:
    """The reference suite's output file as a profile (exact printed values)."""
    path = Path(path)
    refuse_non_file(path, "file of the reference suite's output", ProfileFormatError)
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        raise ProfileFormatError(f"{path}: cannot read the hardware output: {exc.strerror}",
                                 str(path)) from None
    secs = sections(text)
    if not secs:
        raise ProfileFormatError(f"{path}: no 'running ./PROGRAM microbenchmark' sections: "
                                 "not the reference suite's output")
    measured = {}
    for bench in SUITE.values():
        ref = bench.reference
        if ref is None or ref.program not in secs:
            continue
        m = re.search(ref.pattern, secs[ref.program])
        if m:
            line = secs[ref.program][m.start():].splitlines()[0].strip()
            measured[bench.name] = Measured(float(m.group(1)), bench.unit, None, None,
                                            f"{ref.program}: {line}")
    return HwProfile(_device(secs), measured,
                     {"kind": "reference-output", "path": str(path), "programs": list(secs)})
