"""What one ``Device.synchronize()`` returns: every run since the previous
synchronize (synchronous copies run the queue in between, so one host
synchronization can span several runs) as one SimResult.

The runs follow each other on the device's clock (host time is not
modelled), so the window's cycles are the sum of its runs' cycles, its
kernels and copies are theirs in order, and its counters are the GPU's
since the window opened (``GpuSession.stats_since_mark``)."""
from __future__ import annotations

import numpy as np


def _joined(values: list):
    if all(isinstance(v, np.ndarray) for v in values):
        return np.concatenate(values)
    return [x for v in values for x in v]


def window_result(runs: list, stats, template=None):
    """One SimResult for ``runs`` (results of one device, in order) whose
    counters are ``stats``. No runs: an empty result shaped like
    ``template`` (the device's last result): no kernels, no cycles."""
    from accelsim.sim import SimResult

    if len(runs) == 1:
        return runs[0]
    first = runs[0] if runs else template
    if not runs:
        columns = {k: v[:0] for k, v in template.columns.items()}
    else:
        columns = {k: _joined([r.columns[k] for r in runs]) for k in first.columns}
    res = SimResult(columns=columns, total_cycles=sum(r.total_cycles for r in runs),
                    completed=all(r.completed for r in runs), config_name=first.config_name,
                    workload=first.workload, sm_count=first.sm_count, core_period_ps=first.core_period_ps,
                    wall_time_s=sum(r.wall_time_s for r in runs), _stats=stats,
                    interrupted=any(r.interrupted for r in runs))
    for key in ("launches", "copies"):
        res.extra[key] = [x for r in runs for x in r.extra.get(key, [])]
    res.extra["stream_stats"] = dict(runs[-1].extra.get("stream_stats", {})) if runs else {}
    res.extra["runs"] = list(runs)
    return res
