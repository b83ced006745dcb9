"""Command line of the parser fuzzer (see ``accelsim.devtools.fuzz``)."""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from pathlib import Path

from accelsim.devtools.fuzz import TARGETS, fuzz_target, input_for, render
from accelsim.devtools.fuzz.report import doc_from_json, markdown, update_doc


def _replay(spec: str) -> int:
    target, seed, index = spec.split(":")
    value = input_for(target, int(seed), int(index))
    print(f"input: {render(value, 100_000)}")
    with tempfile.TemporaryDirectory() as scratch:
        try:
            TARGETS[target].run(value, Path(scratch))
        except Exception:  # noqa: BLE001 - show what the user would see
            traceback.print_exc()
            return 1
    print("outcome: success")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m accelsim.devtools.fuzz")
    ap.add_argument("--targets", default="", help="comma-separated (default: every parser; "
                    f"known: {', '.join(TARGETS)})")
    ap.add_argument("--per-parser", type=int, default=10_000, help="inputs per target")
    ap.add_argument("--seconds", type=float, default=None, help="time bound per target")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--timeout", type=float, default=None, help="per-input timeout (s)")
    ap.add_argument("--slow", action="store_true", help="also the simulating targets")
    ap.add_argument("--memory-mb", type=int, default=4096,
                    help="worker address-space limit (0: none, e.g. under ASan)")
    ap.add_argument("--json", help="write the figures and findings here")
    ap.add_argument("--replay", help="TARGET:SEED:INDEX: run one input in this process")
    ap.add_argument("--doc", help="rewrite the fuzz section of this Markdown file")
    ap.add_argument("--from-json", action="append", help="with --doc: the figures of an earlier "
                    "--json (repeat for several runs, one --label each)")
    ap.add_argument("--label", action="append", help="with --doc: what the run was")
    ap.add_argument("--doc-section", default="", help="with --doc: a named generated section (e.g. ptx) "
                    "instead of the main one")
    args = ap.parse_args(argv)
    if args.replay:
        return _replay(args.replay)
    if args.from_json:
        if not args.doc:
            ap.error("--from-json needs --doc")
        labels = (args.label or []) + [f"Run {i + 1}" for i in range(len(args.from_json))]
        doc_from_json(list(zip(args.from_json, labels)), args.doc, args.doc_section)
        return 0
    names = [n for n in args.targets.split(",") if n] or [
        n for n, t in TARGETS.items() if args.slow or not t.slow]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        ap.error(f"unknown target(s) {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    results, total_findings = [], 0
    for name in names:
        last = [time.monotonic()]

        def progress(r, last=last):
            if time.monotonic() - last[0] > 60:
                last[0] = time.monotonic()
                print(f"  {r.target}: {r.inputs} inputs, {r.seconds:.0f} s, "
                      f"{len(r.findings)} finding kinds", flush=True)

        r = fuzz_target(name, inputs=args.per_parser, seconds=args.seconds, seed=args.seed,
                        start=args.start, timeout_s=args.timeout, memory_mb=args.memory_mb,
                        on_batch=progress)
        total_findings += len(r.findings)
        print(f"{name:16s} {r.inputs:9d} inputs {r.seconds:8.1f} s {r.rate:8.0f}/s "
              f"restarts {r.restarts:3d} findings {len(r.findings)}", flush=True)
        for f in r.findings.values():
            print(f.describe(), flush=True)
        results.append({"target": name, "inputs": r.inputs, "seconds": round(r.seconds, 1),
                        "rate_per_s": round(r.rate, 1), "restarts": r.restarts,
                        "seed": args.seed, "start": args.start,
                        "findings": [{"kind": f.kind, "type": f.type, "message": f.message,
                                      "where": f.where, "count": f.count, "index": f.index}
                                     for f in r.findings.values()]})
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1))
    if args.doc:
        update_doc(Path(args.doc), markdown(results, (args.label or ["Fuzz run"])[0], section=args.doc_section),
                   args.doc_section)
    return 1 if total_findings else 0


if __name__ == "__main__":
    sys.exit(main())
