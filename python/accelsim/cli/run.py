"""``accelsim run PATH --config NAME [--set key=value ...] [--kernels 3,5-9] [--save DIR] [--json]``."""
from __future__ import annotations

import json
import sys


def register(sub) -> None:
    parser = sub.add_parser("run", help="simulate a traced workload")
    parser.add_argument("path", help="kernelslist.g, a folder holding one, or a kernel trace")
    parser.add_argument("--config", default="QV100", help="bundled config name or YAML path")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (repeatable)")
    parser.add_argument("--max-cycles", type=int, default=None, help="stop after this many cycles")
    parser.add_argument("--kernels", default=None, metavar="IDS",
                        help="simulate only these kernel ids, e.g. 3,5-9 (others are skipped)")
    parser.add_argument("--save", default=None, metavar="DIR",
                        help="write the result's tables (tidy, kernels, streams, counters) to DIR")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (shown on a terminal once a run takes 2 s)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="threads simulating the GPU (default: the config's `threads`, "
                             "0 = the idle usable cores, backing off to one while faster); "
                             "results are identical for every N")
    from accelsim.cli import _run_sampling

    _run_sampling.add_arguments(parser)
    parser.set_defaults(func=_run)


def _run(args) -> int:
    from accelsim._warnings import collected
    from accelsim.cli import _run_sampling, output_folder
    from accelsim.cli.config_cmd import parse_overrides
    from accelsim.config import load_config
    from accelsim.errors import Interrupted
    from accelsim.sim import Simulator

    output_folder("--save", args.save)
    with collected() as said:  # shown on stderr as they happen, and carried into --json
        cfg = load_config(args.config).with_overrides(parse_overrides(args.set))
        more = _run_sampling.run_keywords(args)
        try:
            result = Simulator(cfg).run(args.path, max_cycles=args.max_cycles,
                                        kernels=args.kernels,
                                        progress=False if args.quiet else None,
                                        threads=args.threads, **more)
        except Interrupted as stop:  # Ctrl-C: one line, the conventional 128 + SIGINT
            r = stop.result
            done = sum(s == "simulated" for s in r.columns["status"])
            print(f"accelsim run: interrupted at cycle {r.total_cycles} "
                  f"({done} of {r.num_kernels} kernels simulated)", file=sys.stderr)
            return 130
    if args.save:
        result.save(args.save)
    if args.json:
        print(json.dumps({**result.to_dict(), "warnings": said}, indent=2))
        return 0
    cols = ["id", "name", "stream", "cycles", "warp_instructions", "thread_instructions", "ipc",
            "occupancy", "l1d_hits", "l1d_misses", "status"]
    cols += [c for c in ("representative", "error_bound", "cycles_bound") if c in result.kernels
             and (c != "cycles_bound" or result.kernels[c].any())]
    table = result.kernels[cols].copy()
    table["name"] = table["name"].str.slice(0, 32)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    for line in _run_sampling.summary_lines(result):
        print(line)
    state = "" if result.completed else " (stopped at --max-cycles)"
    print(f"total: {result.total_cycles} cycles, {result.warp_instructions} warp instructions, "
          f"{result.wall_time_s:.2f} s wall{state}")
    return 0
