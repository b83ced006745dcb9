"""The result of a split run stopped by Ctrl-C: the units merged so far, and
a ``not_reached`` row for every later kernel, as a stopped serial run has."""
from __future__ import annotations

from accelsim import _core
from accelsim.stats.merged import MergedStats, export_stats

_TEXT = {"name": "", "occupancy_limiter": "", "trace_warnings": ""}
_REAL = {"ipc", "occupancy", "theoretical_occupancy"}
_TIMES = {"launch_cycle", "start_cycle", "first_cta_cycle", "end_cycle"}


def _row(names, header: dict, clock: int) -> dict:
    row: dict[str, object] = {}
    for name in names:
        if name in _TEXT:
            row[name] = _TEXT[name]
        elif name in _REAL:
            row[name] = 0.0
        elif name in _TIMES:
            row[name] = clock
        else:
            row[name] = 0
    row.update(id=int(header["id"]), name=header["name"], stream=int(header["stream"]),
               status="not_reached", skipped=True)
    return row


def unreached_result(sim, path: str, partial, commands: list, first: int):
    from accelsim.sim import SimResult

    empty = sim._run_path(path, None, None, {"first_command": 0, "end_command": 0}, progress=False)
    base = partial if partial is not None else empty
    columns = {k: list(v) for k, v in base.columns.items()}
    clock = int(base.total_cycles)
    for kind, _line, _text, kernel_path, *_ in commands[first:]:
        if kind == "kernel":
            row = _row(columns, _core.read_kernel_header(kernel_path), clock)
            for name in columns:
                columns[name].append(row[name])
    known = len(partial.columns["id"]) if partial is not None else 0
    rows = [(0, i) for i in range(known)] + [(-1, 0)] * (len(columns["id"]) - known)
    stats = MergedStats([export_stats(base._stats)], rows)
    return SimResult(columns=columns, total_cycles=clock, completed=False, config_name=sim.config_name,
                     workload=path, sm_count=base.sm_count, core_period_ps=base.core_period_ps,
                     wall_time_s=base.wall_time_s, extra=dict(base.extra), _stats=stats, interrupted=True)
