"""One round of kernel sampling: the chosen launches, each after the kernels
that warm the GPU for it, in one run or in windows split over an engine.

Warm-up of a chosen launch (docs/sampling.md, "State warm-up"): the
``warmup`` kernels right before it are simulated in detail (L2 contents,
DRAM rows, queues and write-backs as they would be) unless they are larger
than the launch itself, and before those,
kernels are replayed into the caches below L1 without timing until their
footprint adds up to ``replay`` times the L2 size (what the L2 can still
hold of older kernels: a model's weights or a KV cache reused from one
decode step to the next). Neither is counted.

A round covers the whole command list (on an engine: windows that together
cover it once, each reaching back as far as its launches' warm-up needs).
Copies run where they are (they warm L2 as the real ones do); a copy is
counted once: in the first round, in the window that holds it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from accelsim.sampling.profile import KernelProfile
from accelsim.sampling.units.split import Unit, _cuts, command_costs


@dataclass
class WarmPlan:
    """Per chosen launch (its command position): the positions of the kernels
    simulated to warm it and of those replayed into the caches."""
    detailed: dict[int, list[int]] = field(default_factory=dict)
    replay: dict[int, list[int]] = field(default_factory=dict)

    def needed(self, member: int) -> list[int]:
        return self.detailed[member] + self.replay[member]


def warm_plan(chosen: list[KernelProfile], profiles: list[KernelProfile], warmup: int,
              replay_bytes: float) -> WarmPlan:
    """A warm-up kernel larger than the launch it warms (more estimated
    instructions) and than twice the workload's mean kernel is replayed
    instead of simulated: the costly warm-ups (the LM-head GEMM before an
    arg-max, attention before the output projection) are replayed, while the
    kernels of ordinary size whose simulated state matters (a GEMM before
    its split-K reduction: replayed, the reduction ran 8% slow) are still
    simulated."""
    picked = {p.order for p in chosen}
    plan = WarmPlan()
    large = 2 * sum(p.warp_instructions for p in profiles) / max(1, len(profiles))
    for p in chosen:
        before = [o for o in range(max(0, p.order - warmup), p.order) if o not in picked]
        near = [o for o in before if profiles[o].warp_instructions <= max(p.warp_instructions, large)]
        far, reach, o = [o for o in before if o not in near], 0.0, p.order - warmup - 1
        while o >= 0 and reach < replay_bytes:
            if o not in picked:
                far.append(o)
            reach += profiles[o].footprint_bytes
            o -= 1
        plan.detailed[p.command] = [profiles[o].command for o in near]
        plan.replay[p.command] = sorted(profiles[o].command for o in far)
    return plan


def plan_windows(commands: list, plan: WarmPlan, pieces: int) -> list[Unit]:
    """Windows of about equal simulated work covering the command list; a
    window starts early enough for its launches' warm-up."""
    simulated = set(plan.detailed) | {w for ws in plan.detailed.values() for w in ws}
    costs = [c if (commands[i][0] != "kernel" or i in simulated) else 0.0
             for i, c in enumerate(command_costs(commands))]
    kernels = [i for i, c in enumerate(commands) if c[0] == "kernel"]
    starts = _cuts(costs, kernels, max(1, pieces))
    units = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(commands)
        needed = [w for m in plan.detailed if start <= m < end for w in plan.needed(m)]
        units.append(Unit(n, min(needed + [start]), start, end))
    return units


def window_options(unit: Unit, plan: WarmPlan, copies: list[int], first_round: bool) -> tuple[dict, list[int]]:
    """The core options of one window and its chosen launches' positions.
    The window runs from its earliest warm-up on; commands before its own
    range run only as warm-up (copies there belong to the window before)."""
    members = [m for m in plan.detailed if unit.count_from <= m < unit.end]
    detailed = {w for m in members for w in plan.detailed[m]}
    replay = {w for m in members for w in plan.replay[m]} - detailed - set(members)
    warm_copies = {c for c in copies if unit.first <= c < unit.end and (c < unit.count_from or not first_round)}
    options = {"first_command": unit.first, "count_from": unit.first, "end_command": unit.end,
               "warmup": sorted(detailed | warm_copies), "replay": sorted(replay)}
    return options, members
