"""Grouping launches into clusters of kernels expected to behave alike.

Launches with different names, grids, blocks, shared memory or registers are
never grouped (PKA and Sieve start from the same split), nor launches that
find their data in the caches with launches that touch it first (profile
``reuse`` below or above one half: the first decode step runs cold). Inside a group, a
leader-follower pass over the launches sorted by estimated instructions
starts a new cluster where a launch's instructions exceed the leader's by
more than ``spread`` (relative) or its mix (unit-class fractions, global
bytes per instruction, lines per block) differs from the leader's by more
than ``spread`` in any component: the strata of a stratified sample (Sieve
stratifies by instruction count in the same way).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from accelsim.sampling.profile import KernelProfile


@dataclass
class Cluster:
    """Members in workload order; ``simulated``: the members simulated so far."""
    index: int
    key: tuple
    members: list[KernelProfile]
    simulated: list[KernelProfile] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.key[0]

    def unsimulated(self) -> list[KernelProfile]:
        done = {p.order for p in self.simulated}
        return [p for p in self.members if p.order not in done]


def _mix_distance(a: dict, b: dict) -> float:
    """Largest relative difference of the mix components (fractions in
    absolute terms, the two magnitudes relative to the larger)."""
    worst = 0.0
    for k in set(a) | set(b):
        x, y = a.get(k, 0.0), b.get(k, 0.0)
        if k.startswith("unit."):
            worst = max(worst, abs(x - y))
        elif max(x, y) > 0:
            worst = max(worst, abs(x - y) / max(x, y))
    return worst


def _split(group: list[KernelProfile], spread: float) -> list[list[KernelProfile]]:
    ordered = sorted(group, key=lambda p: (p.warp_instructions, p.order))
    parts: list[list[KernelProfile]] = []
    leader = None
    for p in ordered:
        if leader is not None:
            grows = p.warp_instructions > leader.warp_instructions * (1 + spread)
            if not grows and _mix_distance(p.mix(), leader.mix()) <= spread:
                parts[-1].append(p)
                continue
        leader = p
        parts.append([p])
    return [sorted(part, key=lambda p: p.order) for part in parts]


def make_clusters(profiles: list[KernelProfile], spread: float) -> list[Cluster]:
    """Clusters in order of their first member."""
    groups: dict[tuple, list[KernelProfile]] = {}
    for p in profiles:
        warm = None if p.reuse is None else p.reuse >= 0.5
        groups.setdefault((*p.key, warm), []).append(p)
    parts = [part for g in groups.values() for part in _split(g, spread)]
    parts.sort(key=lambda part: part[0].order)
    return [Cluster(i, part[0].key, part) for i, part in enumerate(parts)]


def spread_pick(members: list[KernelProfile], count: int, taken: set[int], rng) -> list[KernelProfile]:
    """``count`` members not in ``taken`` (orders), spread evenly over the
    cluster's span of the run (systematic sampling with a random start), so
    a sample sees early and late launches alike."""
    free = [p for p in members if p.order not in taken]
    if count >= len(free):
        return free
    step = len(free) / count
    start = rng.random() * step
    picks = [free[min(len(free) - 1, int(math.floor(start + i * step)))] for i in range(count)]
    return sorted({p.order: p for p in picks}.values(), key=lambda p: p.order)
