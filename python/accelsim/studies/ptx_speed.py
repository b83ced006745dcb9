"""PTX mode's speed next to SASS-trace replay of the same kernels
(docs/ptx_speed.md). Each CUDA test program of this repository
(``tests/cuda_programs``) runs unmodified under ``accelsim.run_cuda`` twice:
timed in PTX mode (emulation + timing; the wall is the runtime's own time
inside simulation runs, so compile, start-up and the program's host code are
not in it), and with ``save_trace`` (its launches emulated in command order
and written as an Accel-Sim trace), which ``Simulator.run`` then replays on
the same config. The rate is warp instructions per second of that wall (the least of a few runs); the
goal is PTX / replay >= 0.5. Run it on a quiet machine: rates are
wall-clock figures, ratios (taken within one command) less noisy.

    python -m accelsim.studies.ptx_speed --write docs/ptx_speed.md
"""
from __future__ import annotations

import platform
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

_REPO = Path(__file__).resolve().parents[3]
PROGRAMS_DIR = _REPO / "tests" / "cuda_programs"
# Programs of several shapes: compute-bound tiles, memory-bound streams,
# atomics, host loops of many small launches, shared-memory stages.
PROGRAMS = ("sgemm", "reduction", "scan", "histogram", "transpose", "stencil", "bfs", "spmv", "srad",
            "pathfinder")
BEGIN, END = "<!-- ptx_speed:begin (python -m accelsim.studies.ptx_speed --write) -->", "<!-- ptx_speed:end -->"


def build(name: str, folder: Path) -> Path:
    """``tests/cuda_programs/<name>.cu`` built for the simulator (nvcc -cudart shared)."""
    from accelsim.cuda.nvcc import compile_cuda

    exe = folder / name
    compile_cuda(PROGRAMS_DIR / f"{name}.cu", exe, flags=["-O2", "-I", str(PROGRAMS_DIR)])
    return exe


def measure(exe: Path, config: str = "QV100", repeat: int = 3) -> dict:
    """One program's row: kernels, warp instructions, cycles and wall of both
    ways, each wall the least of ``repeat`` runs (a shared machine only ever
    adds time)."""
    from accelsim.cuda import run_cuda
    from accelsim.errors import AccelsimError
    from accelsim.sim import Simulator

    ptx_wall = float("inf")
    for _ in range(repeat):
        ptx = run_cuda([exe], config, capture_output=True)
        if ptx.returncode != 0:
            raise AccelsimError(f"{exe.name}: exited {ptx.returncode} in PTX mode ({ptx.status}: {ptx.error})")
        ptx_wall = min(ptx_wall, float(ptx.extra["runtime_wall"]["simulation_s"]))
    sass_wall = float("inf")
    with tempfile.TemporaryDirectory(prefix="accelsim-ptx-speed-") as tmp:
        saved = run_cuda([exe], config, capture_output=True, save_trace=Path(tmp) / "trace")
        klist = saved.extra["trace"]
        for _ in range(repeat):
            sim = Simulator(config)
            t = time.perf_counter()
            sass = sim.run(klist)
            sass_wall = min(sass_wall, time.perf_counter() - t)
    # kernel cycles: the program's device-to-host copies are simulated in
    # PTX mode, and a kernelslist has no line for them
    row: dict = {"program": exe.name, "kernels": ptx.num_kernels,
           "ptx_warp_insts": int(ptx.warp_instructions), "ptx_cycles": int(ptx.kernels["cycles"].sum()),
           "ptx_wall_s": ptx_wall, "sass_warp_insts": int(sass.warp_instructions),
           "sass_cycles": int(sass.kernels["cycles"].sum()), "sass_wall_s": sass_wall}
    row["ptx_rate"] = row["ptx_warp_insts"] / ptx_wall if ptx_wall > 0 else 0.0
    row["sass_rate"] = row["sass_warp_insts"] / sass_wall if sass_wall > 0 else 0.0
    row["ratio"] = row["ptx_rate"] / row["sass_rate"] if row["sass_rate"] > 0 else 0.0
    return row


def _k(rate: float) -> str:
    return f"{rate / 1e3:,.0f} K"


def render(rows: list[dict], config: str, note: str, repeat: int = 3) -> str:
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [BEGIN, "",
           f"Measured {when} on {platform.machine()} Linux, {note}; config {config}, records=lowered; "
           f"each wall the least of {repeat} run{'s' if repeat > 1 else ''} (`--repeat {repeat}`).", "",
           "| program | kernels | warp insts: PTX | replay | kernel cycles: PTX | replay | wall: PTX | replay "
           "| rate (warp insts/s): PTX | replay | PTX / replay |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['program']} | {r['kernels']} | {r['ptx_warp_insts']:,} | {r['sass_warp_insts']:,} "
                   f"| {r['ptx_cycles']:,} | {r['sass_cycles']:,} | {r['ptx_wall_s']:.2f} s | {r['sass_wall_s']:.2f} s "
                   f"| {_k(r['ptx_rate'])} | {_k(r['sass_rate'])} | {r['ratio']:.2f} |")
    ptx = sum(r["ptx_warp_insts"] for r in rows) / max(sum(r["ptx_wall_s"] for r in rows), 1e-9)
    sass = sum(r["sass_warp_insts"] for r in rows) / max(sum(r["sass_wall_s"] for r in rows), 1e-9)
    out.append(f"| all | {sum(r['kernels'] for r in rows)} | {sum(r['ptx_warp_insts'] for r in rows):,} "
               f"| {sum(r['sass_warp_insts'] for r in rows):,} | | | {sum(r['ptx_wall_s'] for r in rows):.2f} s "
               f"| {sum(r['sass_wall_s'] for r in rows):.2f} s | {_k(ptx)} | {_k(sass)} | {ptx / sass:.2f} |")
    out += ["", END]
    return "\n".join(out)


def main(argv=None) -> int:
    import argparse

    from accelsim.studies.doc_section import print_or_write

    ap = argparse.ArgumentParser(description="PTX mode vs SASS-trace replay speed (docs/ptx_speed.md)")
    ap.add_argument("--config", default="QV100")
    ap.add_argument("--program", action="append", help="a program of tests/cuda_programs (default: a set of ten)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side; the least wall counts")
    ap.add_argument("--note", default="2 shared cores", help="what the machine was doing, for the table's line")
    ap.add_argument("--write", metavar="DOC", help="replace the table between the markers of DOC")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="accelsim-ptx-speed-build-") as tmp:
        for name in args.program or PROGRAMS:
            rows.append(measure(build(name, Path(tmp)), args.config, args.repeat))
            r = rows[-1]
            print(f"{name}: PTX {_k(r['ptx_rate'])}/s, replay {_k(r['sass_rate'])}/s, ratio {r['ratio']:.2f}",
                  flush=True)
    text = render(rows, args.config, args.note, args.repeat)
    return print_or_write(text, args.write, BEGIN, END)


if __name__ == "__main__":
    raise SystemExit(main())
