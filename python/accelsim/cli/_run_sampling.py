"""``accelsim run`` options for sampled, flushed and split runs: what they
add to the parser and what they make of the arguments (the keywords of
``Simulator.run``). Not a subcommand of its own (no ``register``)."""
from __future__ import annotations

from accelsim.errors import ConfigError

SAMPLE_KINDS = ("kernels", "intra")


def add_arguments(parser) -> None:
    g = parser.add_argument_group("sampling and splitting (docs/sampling.md)")
    g.add_argument("--sample", default=None, metavar="KINDS",
                   help="kernels: simulate a few launches of each group of similar kernels and project "
                        "the others; intra: stop long kernels once their CTA waves are steady; "
                        "kernels,intra: both")
    g.add_argument("--sample-target", type=float, default=None, metavar="X",
                   help="kernel sampling: simulate more launches until the total's 95%% bound is "
                        "below X (relative, e.g. 0.01)")
    g.add_argument("--sample-per-cluster", type=int, default=2, metavar="N",
                   help="kernel sampling: launches simulated per group at first (default 2)")
    g.add_argument("--sample-seed", type=int, default=0, metavar="N",
                   help="kernel sampling: which launches are picked (default 0)")
    g.add_argument("--sample-warmup", type=int, default=1, metavar="N",
                   help="kernels simulated (not counted) before each sampled one or each unit "
                        "of a split run, to warm the caches (default 1)")
    g.add_argument("--intra-tolerance", type=float, default=0.03, metavar="X",
                   help="intra-kernel sampling: rate drift and projection bound allowed (default 0.03)")
    g.add_argument("--flush", action="store_true",
                   help="start every kernel and copy on a GPU in its power-on state (caches empty), "
                        "one at a time, as Nsight Compute measures")
    g.add_argument("--engine", default=None, choices=("process", "dask", "serial"),
                   help="split the workload over worker processes (or a Dask LocalCluster) and merge")
    g.add_argument("--workers", type=int, default=None, metavar="N", help="worker processes (default: cores)")
    g.add_argument("--units", type=int, default=None, metavar="N",
                   help="pieces the workload is split into (default: 2 per worker)")


def run_keywords(args) -> dict:
    """The sampling / flush / engine keywords of ``Simulator.run`` from the
    parsed arguments (only those the user set)."""
    from accelsim.sampling import IntraKernelSampling, KernelSampling

    kinds = [k.strip() for k in args.sample.split(",")] if args.sample else []
    unknown = [k for k in kinds if k not in SAMPLE_KINDS]
    if unknown:
        raise ConfigError(f"--sample {args.sample!r}: unknown kind {unknown[0]!r}; kinds: "
                          f"{', '.join(SAMPLE_KINDS)} (comma-separated)", key="sample")
    sample: list = []
    if "kernels" in kinds:
        sample.append(KernelSampling(per_cluster=args.sample_per_cluster, target_error=args.sample_target,
                                     seed=args.sample_seed, warmup=args.sample_warmup))
    if "intra" in kinds:
        sample.append(IntraKernelSampling(tolerance=args.intra_tolerance))
    out: dict = {}
    if sample:
        out["sample"] = sample
    if args.flush:
        out["flush"] = True
    if args.engine:
        out.update(engine=args.engine, workers=args.workers, units=args.units, warmup=args.sample_warmup)
    return out


def summary_lines(result) -> list[str]:
    """What a sampled or split run adds below the kernel table."""
    lines = []
    info = result.extra.get("sampling")
    if info:
        lines.append(f"kernel sampling: {info['simulated_kernels']} of {result.num_kernels} kernels simulated "
                     f"({100 * info['simulated_instruction_fraction']:.1f}% of the instructions) in "
                     f"{len(info['clusters'])} clusters; total {result.total_cycles} cycles "
                     f"+/- {info['total_bound_cycles']:.0f} (95%: {100 * info['total_error_bound']:.2f}%)")
    sampled = [s for s in result.columns.get("status", []) if s == "sampled"]
    if sampled:
        lines.append(f"intra-kernel sampling: {len(sampled)} kernels stopped once steady (cycles_bound: "
                     "their 95% bounds)")
    units = result.extra.get("units")
    if units:
        workers = len({u.get("worker") for u in units})
        lines.append(f"split run: {len(units)} units on {workers} workers ({result.extra.get('engine')})")
    return lines
