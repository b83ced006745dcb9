"""``Simulator.run(..., sample=KernelSampling(...))``: profile every launch,
group them, simulate a few of each group, fit, and (with a target error)
simulate more where the bound of the total comes from, then assemble one
result in which every kernel is ``simulated`` or ``projected``."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from accelsim.errors import ConfigError
from accelsim.sampling import estimate
from accelsim.sampling.clusters import Cluster, make_clusters, spread_pick
from accelsim.sampling.profile import KernelProfile, mark_reuse, profile_kernels, workload_commands
from accelsim.sampling.rounds import plan_windows, warm_plan, window_options


@dataclass
class Sampled:
    """Everything measured so far."""
    commands: list
    profiles: list[KernelProfile]
    clusters: list[Cluster]
    rows: dict = field(default_factory=dict)    # order -> (row dict, part, row index)
    parts: list = field(default_factory=list)   # exported stats of every run
    copies: list = field(default_factory=list)  # first round's copy records
    rounds: list = field(default_factory=list)  # per round: members, wall_s
    sm_count: int = 0
    core_period_ps: int = 0
    owner: dict = field(default_factory=dict)   # order -> cluster index

    def __post_init__(self):
        self.owner = {m.order: c.index for c in self.clusters for m in c.members}

    def samples(self) -> dict[int, list[tuple[float, float]]]:
        return {c.index: [(p.warp_instructions, float(self.rows[p.order][0]["cycles"])) for p in c.simulated]
                for c in self.clusters}


def _run_round(sim, path: str, state: Sampled, chosen: list[KernelProfile], base: dict, run) -> None:
    """Simulates ``chosen`` (windows on ``run``) and records their rows."""
    start = time.perf_counter()
    plan = warm_plan(chosen, state.profiles, run.warmup, run.replay_bytes)
    copies = [i for i, c in enumerate(state.commands) if c[0] != "kernel"]
    first = not state.rounds
    units = plan_windows(state.commands, plan, run.pieces)
    by_command = {p.command: p for p in chosen}
    windows = [window_options(u, plan, copies, first) for u in units]
    outcomes = run(units, [{**base, **opts} for opts, _ in windows],
                   [sorted(by_command[m].id for m in members) for _, members in windows])
    for unit, out in zip(units, outcomes):
        part = len(state.parts)
        state.parts.append(out["stats"])
        positions = _kernel_positions(state.commands, unit.first, unit.end)
        for i, status in enumerate(out["columns"]["status"]):
            p = by_command.get(positions[i])
            if p is not None and status in ("simulated", "sampled"):
                state.rows[p.order] = ({k: v[i] for k, v in out["columns"].items()}, part, i)
        if first:
            state.copies += [c for c in out["copies"] if not c.get("warmup")]
        state.sm_count, state.core_period_ps = out["sm_count"], out["core_period_ps"]
    missing = [p.id for p in chosen if p.order not in state.rows]
    if missing:
        raise ConfigError(f"kernel sampling: kernels {missing[:5]} were chosen but not simulated "
                          "(a cycle budget or an error stopped the run?)")
    for p in chosen:
        state.clusters[state.owner[p.order]].simulated.append(p)
    state.rounds.append({"members": len(chosen), "wall_s": time.perf_counter() - start,
                         "windows": len(units),
                         "replayed": len({w for ws in plan.replay.values() for w in ws}),
                         "warmed": len({w for ws in plan.detailed.values() for w in ws})})


def _kernel_positions(commands: list, first: int, end: int) -> list[int]:
    return [i for i in range(first, end) if commands[i][0] == "kernel"]


def _allocate(state: Sampled, fits: dict, opts, total_x: float) -> list[KernelProfile]:
    """More members where the total's variance comes from: clusters in order
    of their share, each doubling its simulated members, until 80% of the
    variance is covered or the instruction budget (max_fraction) is spent."""
    shares = []
    for c in state.clusters:
        rest = c.unsimulated()
        if rest and c.index in fits:
            shares.append((fits[c.index].variance([p.warp_instructions for p in rest]), c))
    total = sum(v for v, _ in shares)
    spent = sum(p.warp_instructions for c in state.clusters for p in c.simulated)
    rng = random.Random(opts.seed + len(state.rounds))
    picked, covered = [], 0.0
    for v, c in sorted(shares, key=lambda s: -s[0]):
        if total <= 0 or covered >= 0.8 * total:
            break
        new = spread_pick(c.members, max(1, len(c.simulated)), {p.order for p in c.simulated}, rng)
        cost = sum(p.warp_instructions for p in new)
        if spent + cost > opts.max_fraction * total_x:
            continue
        picked += new
        spent += cost
        covered += v
    return sorted(picked, key=lambda p: p.order)


# A cluster whose first-round members would be more than this share of the
# first round's simulated instructions starts with one member (its bound then
# rests on the pooled spread; target_error rounds add members where the
# variance is).
DOMINANT_SHARE = 1 / 3


def _first_counts(clusters: list[Cluster], per_cluster: int) -> dict[int, int]:
    """First-round members per cluster: ``per_cluster``, or one where those
    would dominate the round's cost (cost-weighted allocation, as Neyman's
    with unit costs: two launches of a decode run's LM-head GEMM were half
    of what two members of every cluster simulated)."""
    cost = {c.index: per_cluster * sum(p.warp_instructions for p in c.members) / len(c.members)
            for c in clusters}
    total = sum(cost.values())
    return {h: 1 if c > DOMINANT_SHARE * total else per_cluster for h, c in cost.items()}


def _check_ids(profiles: list[KernelProfile]) -> None:
    seen: set[int] = set()
    for p in profiles:
        if p.id in seen:
            raise ConfigError(f"kernel sampling needs distinct kernel ids; id {p.id} appears twice "
                              "(kernel headers '-kernel id')", key="sample")
        seen.add(p.id)


def run_sampled(sim, path: str, opts, options: dict, *, engine, workers, threads, progress):
    """See ``Simulator.run``: ``sample=KernelSampling(...)``."""
    from accelsim.sampling.assemble import assemble
    from accelsim.sampling.runs import make_runner
    from accelsim.trace._isa import isa_registry

    start = time.perf_counter()
    commands = workload_commands(path)
    profiles = profile_kernels(commands, isa_registry(sim._isa, sim.opcode_units or None),
                               opts.profile_blocks)
    _check_ids(profiles)
    replay_bytes = opts.replay * float(sim.param("l2_size"))
    mark_reuse(profiles, max(replay_bytes, float(sim.param("l2_size"))))
    profile_s = time.perf_counter() - start
    state = Sampled(commands, profiles, make_clusters(profiles, opts.spread))
    run = make_runner(sim, path, engine, workers, threads, progress, warmup=opts.warmup,
                      replay_bytes=replay_bytes)
    rng = random.Random(opts.seed)
    total_x = sum(p.warp_instructions for p in profiles)
    counts = _first_counts(state.clusters, opts.per_cluster)
    first = [p for c in state.clusters for p in spread_pick(c.members, counts[c.index], set(), rng)]
    _run_round(sim, path, state, sorted(first, key=lambda p: p.order), options, run)
    while opts.target_error is not None and len(state.rounds) < opts.max_rounds:
        fits, _ = estimate.fit(state.samples())
        projected = assemble(sim, path, state, fits, opts, profile_s, start, dry=True)
        if projected <= opts.target_error:
            break
        more = _allocate(state, fits, opts, total_x)
        if not more:
            break
        _run_round(sim, path, state, more, options, run)
    fits, _ = estimate.fit(state.samples())
    return assemble(sim, path, state, fits, opts, profile_s, start)
