"""Units' results into one ``SimResult``, in kernel order.

Each unit ran on a GPU of its own whose clock started at 0. Its counted
commands (warm-up left out) are moved onto the merged clock so that the
unit's first counted command starts where the unit before it ended: the
timeline of a serial run in which commands of one unit start after those of
the unit before. Counter totals add up; each kernel's row of the per-kernel
table comes from the unit that counted it.
"""
from __future__ import annotations

import warnings

from accelsim.stats.merged import MergedStats

TIME_COLUMNS = ("launch_cycle", "start_cycle", "first_cta_cycle", "end_cycle")


def _counted(outcome: dict) -> list[int]:
    return [i for i, s in enumerate(outcome["columns"]["status"]) if s != "warmup"]


def _shifted(value: int, offset: int) -> int:
    return int(value) + offset


def _merge_columns(out: dict, keep: list[int], offset: int, columns: dict) -> None:
    cols = out["columns"]
    for name, values in cols.items():
        picked = [values[i] for i in keep]
        if name in TIME_COLUMNS:
            picked = [_shifted(v, offset) for v in picked]
        elif name == "simulated_end_cycle":
            picked = [_shifted(v, offset) if v else 0 for v in picked]
        columns.setdefault(name, []).extend(picked)


def merge_outcomes(sim, path: str, outcomes: list[dict], wall_s: float, extra: dict):
    """``outcomes``: the units' ``run_unit`` results, in command order."""
    from accelsim.sim import SimResult

    columns: dict = {}
    copies: list = []
    rows: list[tuple[int, int]] = []
    trace_warnings: dict = {}
    clock = 0
    for part, out in enumerate(outcomes):
        keep = _counted(out)
        mine = [dict(c) for c in out["copies"] if not c.get("warmup")]
        starts = [int(out["columns"]["launch_cycle"][i]) for i in keep] + [int(c["start_cycle"]) for c in mine]
        offset = clock - (min(starts) if starts else int(out["total_cycles"]))
        _merge_columns(out, keep, offset, columns)
        for c in mine:
            c["start_cycle"], c["end_cycle"] = c["start_cycle"] + offset, c["end_cycle"] + offset
        copies += mine
        rows += [(part, i) for i in keep]
        trace_warnings.update(out.get("trace_warnings", {}))
        clock = offset + int(out["total_cycles"])
    for kid, text in trace_warnings.items():
        from accelsim.sim import TraceFormatWarning

        warnings.warn(f"{path}: kernel {kid}: {text}", TraceFormatWarning, stacklevel=4)
    first = outcomes[0]
    return SimResult(columns=columns, total_cycles=clock, completed=all(o["completed"] for o in outcomes),
                     config_name=sim.config_name, workload=path, sm_count=first["sm_count"],
                     core_period_ps=first["core_period_ps"], wall_time_s=wall_s,
                     extra={"trace_warnings": trace_warnings, "copies": copies, **extra},
                     _stats=MergedStats([o["stats"] for o in outcomes], rows))
