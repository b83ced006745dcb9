"""One round of kernel sampling: simulate the chosen launches, each after
the kernels that warm the GPU for it, in one run or split over an engine.

A round covers the whole command list (on an engine, windows of it that
together cover it once): the chosen kernels are simulated and counted, the
``warmup`` kernels before each are simulated and not counted, every other
kernel is skipped. Copies run in every round where they are in the command
list (they warm L2 as the real ones do); from the second round on they are
warm-up too, so the result counts each copy once.
"""
from __future__ import annotations

from accelsim.sampling.profile import KernelProfile
from accelsim.units.split import Unit, _cuts, command_costs


def warmup_of(chosen: list[KernelProfile], profiles: list[KernelProfile], warmup: int) -> dict[int, list[int]]:
    """For each chosen launch (by command position), the command positions of
    the ``warmup`` kernels before it that are not chosen themselves."""
    picked = {p.order for p in chosen}
    return {p.command: [profiles[o].command for o in range(max(0, p.order - warmup), p.order) if o not in picked]
            for p in chosen}


def plan_windows(commands: list, warm_of: dict[int, list[int]], pieces: int) -> list[Unit]:
    """Windows of about equal simulated work covering the command list. A
    window whose first chosen launches need warm-up before its start reaches
    back to it (those commands only warm: count_from)."""
    simulated = set(warm_of) | {w for ws in warm_of.values() for w in ws}
    costs = [c if (commands[i][0] != "kernel" or i in simulated) else 0.0
             for i, c in enumerate(command_costs(commands))]
    kernels = [i for i, c in enumerate(commands) if c[0] == "kernel"]
    starts = _cuts(costs, kernels, max(1, pieces))
    units = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(commands)
        needed = [w for p, ws in warm_of.items() if start <= p < end for w in ws if w < start]
        units.append(Unit(n, min(needed, default=start), start, end))
    return units


def window_options(unit: Unit, warm_of: dict[int, list[int]], copies: list[int], first_round: bool) -> dict:
    """The core options of one window: its range, and as warm-up the warm
    kernels of its chosen launches (and, after the first round, its copies)."""
    inside = {w for p, ws in warm_of.items() if unit.count_from <= p < unit.end for w in ws if w >= unit.count_from}
    if not first_round:
        inside |= {c for c in copies if unit.count_from <= c < unit.end}
    return {**unit.core_options(), "warmup": sorted(inside)}
