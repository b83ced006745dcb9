"""A kernel-sampled run as one ``SimResult``.

Simulated kernels keep their rows. A projected kernel's ``cycles`` is its
cluster's ratio times its estimated instructions; its counts are those of its
``representative`` (the simulated member of its cluster nearest to it in the
run) scaled by their instruction ratio; ``error_bound`` is its relative 95%
bound (``cycles_bound`` in cycles). The timeline runs the commands one after
the other (a kernel starts when the command before it ended: the serial
order of a single-stream run). Counter families hold what was simulated
(the chosen kernels, and the copies once); a projected kernel's row of the
per-kernel table is zero.
"""
from __future__ import annotations

import time

from accelsim.sampling import estimate
from accelsim.stats.merged import MergedStats

# Counts scaled from the representative by the instruction ratio.
SCALED = ("warp_instructions", "thread_instructions", "mem_instructions", "l1d_hits", "l1d_misses",
          "l1d_mshr_merges", "l1d_writes", "l1d_bypass", "l1d_reservation_fails", "shmem_accesses",
          "shmem_bank_cycles", "const_accesses", "icache_misses", "l2_read_hits", "l2_read_misses",
          "l2_writes", "dram_reads", "dram_writes", "dram_activates", "dram_row_hits", "dram_row_misses",
          "active_sm_cycles", "sm_ticks")


def _nearest(cluster, order: int):
    return min(cluster.simulated, key=lambda p: (abs(p.order - order), p.order))


def _projected_row(state, fit, p, cluster) -> tuple[dict, float]:
    rep = _nearest(cluster, p.order)
    base = dict(state.rows[rep.order][0])
    scale = p.warp_instructions / rep.warp_instructions if rep.warp_instructions else 1.0
    cycles = int(round(fit.predict(p.warp_instructions)))
    bound = fit.bound(p.warp_instructions)
    for k in SCALED:
        if k in base:
            base[k] = int(round(base[k] * scale))
    base.update(id=p.id, name=p.name, stream=p.stream, status="projected", skipped=False, ctas=p.ctas,
                cycles=cycles, simulated_ctas=0, simulated_end_cycle=0, cycles_bound=int(round(bound)),
                ipc=base["warp_instructions"] / cycles if cycles else 0.0, representative=rep.id,
                error_bound=bound / cycles if cycles else 0.0)
    return base, bound


def _rows(state, fits) -> tuple[list[dict], list[tuple], list]:
    """Rows in kernel order, their per-kernel table sources, and per cluster
    (fit, x of projected members) for the total's bound."""
    rows, sources, parts = [], [], []
    projected: dict[int, list[float]] = {c.index: [] for c in state.clusters}
    for p in state.profiles:
        c = state.clusters[state.owner[p.order]]
        if p.order in state.rows:
            row, part, index = state.rows[p.order]
            row = dict(row, representative=p.id, cluster=c.index,
                       error_bound=(row["cycles_bound"] / row["cycles"] if row["cycles"] else 0.0))
            rows.append(row)
            sources.append((part, index))
        else:
            row, _ = _projected_row(state, fits[c.index], p, c)
            row["cluster"] = c.index
            rows.append(row)
            sources.append((-1, 0))
            projected[c.index].append(p.warp_instructions)
    for c in state.clusters:
        if projected[c.index]:
            parts.append((fits[c.index], projected[c.index]))
    return rows, sources, parts


def _timeline(state, rows: list[dict]) -> tuple[list[dict], list[dict], int]:
    """Commands one after the other: kernels by their cycles (launch to end),
    copies by their own."""
    clock, k, copies, it = 0, 0, [], iter(state.copies)
    out = []
    for kind, *_ in state.commands:
        if kind == "kernel":
            row = dict(rows[k])
            lead, first = row["start_cycle"] - row["launch_cycle"], row["first_cta_cycle"] - row["launch_cycle"]
            row.update(launch_cycle=clock, start_cycle=clock + lead, first_cta_cycle=clock + first,
                       end_cycle=clock + row["cycles"])
            if "sm_elapsed_cycles" in row:  # derived columns follow the moved (or projected) times
                row.update(sm_elapsed_cycles=max(0, row["end_cycle"] - row["first_cta_cycle"]),
                           launch_latency_cycles=max(0, lead))
            clock = row["end_cycle"]
            out.append(row)
            k += 1
        else:
            c = dict(next(it, None) or {"cycles": 0})
            c.update(start_cycle=clock, end_cycle=clock + int(c["cycles"]))
            clock = c["end_cycle"]
            copies.append(c)
    return out, copies, clock


def _summary(state, fits, pooled, bound: float, total: int, profile_s: float) -> dict:
    simulated_x = sum(p.warp_instructions for c in state.clusters for p in c.simulated)
    all_x = sum(p.warp_instructions for p in state.profiles) or 1.0
    clusters = [{"cluster": c.index, "name": c.name, "grid": c.key[1], "block": c.key[2], "members": len(c.members),
                 "simulated": len(c.simulated), "cycles_per_instruction": fits[c.index].ratio,
                 "spread": fits[c.index].spread, "own_spread": fits[c.index].own_spread}
                for c in state.clusters]
    return {"clusters": clusters, "rounds": list(state.rounds), "pooled_spread": pooled,
            "total_bound_cycles": bound, "total_error_bound": bound / total if total else 0.0,
            "simulated_kernels": sum(len(c.simulated) for c in state.clusters),
            "simulated_instruction_fraction": simulated_x / all_x, "profile_s": profile_s}


def assemble(sim, path: str, state, fits: dict, opts, profile_s: float, start: float, dry: bool = False):
    """The result (or, ``dry``, only the relative bound of its total)."""
    from accelsim.sim import SimResult

    rows, sources, parts = _rows(state, fits)
    rows, copies, total = _timeline(state, rows)
    bound = estimate.total_bound(parts)
    if dry:
        return bound / total if total else 0.0
    columns = {name: [r.get(name) for r in rows] for name in rows[0]} if rows else {}
    summary = _summary(state, fits, estimate.fit(state.samples())[1], bound, total, profile_s)
    summary["options"] = opts
    return SimResult(columns=columns, total_cycles=total, completed=True, config_name=sim.config_name,
                     workload=path, sm_count=state.sm_count, core_period_ps=state.core_period_ps,
                     wall_time_s=time.perf_counter() - start,
                     extra={"copies": copies, "trace_warnings": {}, "sampling": summary},
                     _stats=MergedStats(state.parts, sources))
