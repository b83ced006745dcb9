"""A hand-made run's statistics for the stats API tests, without the core:
two kernels on two streams, an L2 family and a DRAM family."""
from __future__ import annotations

import numpy as np
import pandas as pd

TYPES = ["GLOBAL_ACC_R", "GLOBAL_ACC_W"]
OUTCOMES = ["HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT"]


class FakeStats:
    """The RunStats interface over plain arrays."""

    def __init__(self):
        self.stream_ids = [7, 9]
        self.kernel_rows = 2
        l2 = np.zeros((2, 2, 2, 6), dtype=np.uint64)   # slice, stream, type, outcome
        l2[0, 0, 0, 2] = 3; l2[1, 0, 0, 0] = 5          # stream 7: 3 misses, 5 hits
        l2[0, 1, 0, 5] = 2; l2[1, 1, 1, 2] = 4          # stream 9: 2 MSHR hits, 4 write misses
        dram = np.zeros((3, 2, 2), dtype=np.uint64)     # channel, stream, op
        dram[0, 0, 0] = 3; dram[2, 1, 1] = 4
        self._totals = {"l2.accesses": l2, "dram.ops": dram}
        self._kernels = {"l2.accesses": l2.sum(axis=0), "dram.ops": dram.sum(axis=0)}
        self._info = {
            "l2.accesses": {"name": "l2.accesses", "component": "l2", "unit": "sector", "doc": "",
                            "dims": [_d("slice", ["0", "1"], "instance"),
                                     _d("stream", ["0", "1"], "stream"),
                                     _d("access_type", TYPES), _d("outcome", OUTCOMES)]},
            "dram.ops": {"name": "dram.ops", "component": "dram", "unit": "sector", "doc": "",
                         "dims": [_d("channel", ["0", "1", "2"], "instance"),
                                  _d("stream", ["0", "1"], "stream"),
                                  _d("op", ["read", "write"])]},
        }
        for a in (*self._totals.values(), *self._kernels.values()):
            a.setflags(write=False)

    def families(self):
        return list(self._info)

    def info(self, name):
        return self._info[name]

    def counters(self, name):
        return self._totals[name]

    def kernel_counters(self, name):
        return self._kernels[name]


def _d(name, labels, kind="category"):
    return {"name": name, "labels": labels, "kind": kind}


def fake_kernels() -> pd.DataFrame:
    return pd.DataFrame({"id": [1, 2], "name": ["_Z4readPf", "_Z5writePf"], "stream": [7, 9],
                         "launch_cycle": [0, 0], "start_cycle": [10, 20], "end_cycle": [500, 400],
                         "first_cta_cycle": [12, 25], "cycles": [500, 400], "sm_elapsed_cycles": [488, 375],
                         "launch_latency_cycles": [10, 20], "warp_instructions": [40, 30],
                         "thread_instructions": [1280, 960], "skipped": [False, False]})


class FakeResult:
    """A result object over the fake statistics (what SimResult provides)."""

    def __init__(self):
        from accelsim.stats import StatsResultMixin

        class _R(StatsResultMixin):
            pass

        self.r = _R()
        self.r.kernels = fake_kernels()
        self.r._stats = FakeStats()
        self.r.sm_count = 80
        self.r.total_cycles = 500
