"""``accelsim cuda [--config NAME] [--records lowered|ptx|sass] [--max-cycles N] [--wall-limit S]
[--flush-caches] [--sample intra [--intra-tolerance X]] [--out DIR] -- ./app ARGS``:
runs an unmodified CUDA program (built with ``nvcc -cudart shared``) on the
simulated GPU. The program's output and exit status pass through; a summary
of what was simulated goes to stderr."""
from __future__ import annotations

import sys


def register(sub) -> None:
    parser = sub.add_parser("cuda", help="run an unmodified CUDA program on the simulated GPU",
                            description="Run a CUDA program built with `nvcc -cudart shared` on the simulated "
                                        "GPU: its kernels and copies are simulated, its output and exit status "
                                        "pass through. Put the program after `--`.")
    parser.add_argument("--config", default="QV100", help="bundled config name or YAML path")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a config value (repeatable)")
    parser.add_argument("--records", default="lowered", choices=["lowered", "ptx", "sass"],
                        help="what each PTX instruction gives the timing model (default: lowered; sass: the "
                             "SASS ptxas makes of its line, needs ptxas and nvdisasm)")
    parser.add_argument("--max-cycles", type=int, default=None, metavar="N",
                        help="stop the program at this simulated cycle, keeping the result so far")
    parser.add_argument("--wall-limit", type=float, default=None, metavar="S",
                        help="stop the program after S seconds of wall time, keeping the result so far "
                             "(exit status 124, as at --max-cycles)")
    parser.add_argument("--regs", type=int, default=32, metavar="N",
                        help="registers per thread for occupancy (PTX registers are virtual; default 32)")
    parser.add_argument("--max-warp-insts", type=int, default=None, metavar="N",
                        help="warp instructions one warp may execute before its kernel is an error that says "
                             "why it loops (default 2^24)")
    parser.add_argument("--flush-caches", action="store_true",
                        help="start every kernel with an empty L2, as Nsight Compute measures kernels")
    parser.add_argument("--sample", default=None, metavar="intra",
                        help="intra: time kernels of many CTA waves until their waves are steady, run their "
                             "other CTAs functionally only and project their cycles (docs/sampling.md)")
    parser.add_argument("--intra-tolerance", type=float, default=None, metavar="X",
                        help="with --sample intra: rate drift and projection bound allowed (default 0.03)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="save the result there (accelsim.load_result reads it)")
    parser.add_argument("--save-trace", default=None, metavar="DIR",
                        help="instead of timing, write the program's run as an Accel-Sim trace there "
                             "(kernelslist.g with its copies, for `accelsim run`)")
    parser.add_argument("--quiet", action="store_true", help="no summary on stderr")
    parser.add_argument("program", nargs="+", help="the program and its arguments (after --)")
    parser.set_defaults(func=_run)


def _run(args) -> int:
    from accelsim.cli import output_folder
    from accelsim.cli.config_cmd import parse_overrides
    from accelsim.config import load_config
    from accelsim.cuda import run_cuda
    from accelsim.cuda.launcher import EXIT_MAX_CYCLES
    from accelsim.errors import Interrupted, ProgramKilled

    output_folder("--out", args.out)
    output_folder("--save-trace", args.save_trace)
    sample = _sample(args)
    cfg = load_config(args.config).with_overrides(parse_overrides(args.set))
    try:
        result = run_cuda(args.program, cfg, records=args.records, max_cycles=args.max_cycles, out=args.out,
                          save_trace=args.save_trace, regs_per_thread=args.regs,
                          flush_caches=args.flush_caches, max_warp_insts=args.max_warp_insts,
                          wall_limit=args.wall_limit, sample=sample)
    except ProgramKilled as e:  # the shell's status for a signal death, as if the program ran alone
        print(f"accelsim cuda: {e}", file=sys.stderr)
        return 128 - e.returncode
    except Interrupted as stop:
        r = stop.result
        if args.out:
            r.save(args.out)
        print(f"accelsim cuda: interrupted at cycle {r.total_cycles} ({r.num_kernels} kernels)", file=sys.stderr)
        return 130
    if not args.quiet and args.save_trace:
        print(f"accelsim cuda: trace written: {result.extra['trace']}", file=sys.stderr)
    elif not args.quiet:
        state = {"exited": "", "max_cycles": " (stopped at --max-cycles)",
                 "wall_limit": " (stopped at --wall-limit)"}.get(result.status, f" ({result.status})")
        print(f"accelsim cuda: {result.num_kernels} kernels, {len(result.copies)} copies, "
              f"{result.total_cycles} cycles on {result.config_name}{state}; {result.wall_time_s:.2f} s wall",
              file=sys.stderr)
        if sample is not None:
            print(f"accelsim cuda: {_sampled_summary(result)}", file=sys.stderr)
    if result.returncode < 0:  # died of a signal after the runtime wrote its result (an atexit handler)
        from accelsim.cuda.launcher import killed_by

        name, meaning = killed_by(result.returncode)
        print(f"accelsim cuda: the program died of {name} ({meaning})", file=sys.stderr)
        return 128 - result.returncode
    return EXIT_MAX_CYCLES if result.status == "wall_limit" else result.returncode


def _sample(args):
    """--sample / --intra-tolerance as an IntraKernelSampling (None: off)."""
    from accelsim.errors import ConfigError
    from accelsim.run_modes import IntraKernelSampling

    if args.sample is None:
        if args.intra_tolerance is not None:
            raise ConfigError("--intra-tolerance needs --sample intra", key="intra-tolerance")
        return None
    if args.sample != "intra":
        raise ConfigError(f"--sample {args.sample!r}: accelsim cuda samples inside kernels only ('intra'); "
                          "kernel sampling would skip kernels whose results the program needs", key="sample")
    tol = 0.03 if args.intra_tolerance is None else args.intra_tolerance
    return IntraKernelSampling(tolerance=tol)


def _sampled_summary(result) -> str:
    """How many kernels were sampled, and what of the total is projected."""
    k = result.kernels
    sampled = k[k["status"] == "sampled"] if len(k) else k
    if not len(sampled):
        return "intra-kernel sampling: no kernel had enough steady waves to sample (all simulated in full)"
    bound, timed = int(sampled["cycles_bound"].sum()), int(sampled["simulated_ctas"].sum())
    return (f"intra-kernel sampling: {len(sampled)} of {len(k)} kernels sampled ({timed:,}"
            f" of {int(sampled['ctas'].sum()):,} of their CTAs timed, the rest run functionally); their cycles "
            f"are projected, +/- {bound:,} cycles (95%)")
