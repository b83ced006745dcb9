"""Small generated decode workloads for the sampling and split-run tests
(a few seconds of simulation each), and result comparisons."""
from __future__ import annotations

import numpy as np

from accelsim.tracegen.llm import DecodeSpec, write_decode_workload

TINY = DecodeSpec(layers=1, hidden=256, heads=4, ffn=1024, vocab=1024, batch=2, steps=4, context=48,
                  max_len=128, seed=3)


def write_tiny(folder, spec: DecodeSpec = TINY, compression: str | None = "xz"):
    return write_decode_workload(folder, spec, compression=compression)


def differences(a, b) -> list[str]:
    """Where two results differ: kernel columns, copies, total cycles, every
    counter family and every per-kernel row ([] = identical)."""
    out = [f"column {c}" for c in a.columns if list(a.columns[c]) != list(b.columns.get(c, []))]
    if a.total_cycles != b.total_cycles:
        out.append(f"total_cycles {a.total_cycles} != {b.total_cycles}")
    if a.copies != b.copies:
        out.append("copies")
    for f in a.families:
        if not np.array_equal(a.counters(f), b.counters(f)):
            out.append(f"family {f}")
        if not np.array_equal(a._stats.kernel_counters(f), b._stats.kernel_counters(f)):
            out.append(f"kernel rows of {f}")
    return out
