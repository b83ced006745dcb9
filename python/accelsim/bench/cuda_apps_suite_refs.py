"""Checks of Rodinia programs against what the suite itself fixes or computes
on the CPU: streamcluster against the suite's CPU-only original
(``streamcluster_original.cpp``, the PARSEC program the CUDA version was made
from, same seed and generated points), and heartwall's first frame against
the wall points written in its source."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

__all__ = ["streamcluster_check", "heartwall_points", "heartwall_check"]


def _host_compiler() -> str:
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        raise FileNotFoundError("no C++ compiler (g++) on PATH to build streamcluster's CPU version")
    return cxx


def streamcluster_check(folder: Path, original: Path, args: list[str]) -> bool:
    """The output file (argument 8: each center's point id, weight and
    coordinates) equals, byte for byte, what the CPU original writes when
    run with the same arguments. Both draw the points and every random
    choice from lrand48 after srand48(1); only pgain's cost sums run on the
    GPU, so any wrong gain changes which centers open."""
    cpu = folder / "cpu-reference"
    cpu.mkdir(exist_ok=True)
    exe = cpu / "streamcluster_cpu"
    subprocess.run([_host_compiler(), "-O3", "-w", "-pthread", str(original), "-o", str(exe)], check=True,
                   capture_output=True, timeout=600)
    subprocess.run([str(exe), *args], cwd=cpu, check=True, capture_output=True, timeout=600)
    name = args[7]
    return (folder / name).read_bytes() == (cpu / name).read_bytes()


def heartwall_points(main_cu: Path) -> dict[str, list[int]]:
    """The initial endocardium and epicardium points main.cu assigns one by
    one (``common.endoRow[ 0] = 369;`` ...): endoRow, endoCol, epiRow, epiCol."""
    text = main_cu.read_text(errors="replace")
    out = {}
    for name in ("endoRow", "endoCol", "epiRow", "epiCol"):
        pairs = [(int(i), int(v)) for i, v in re.findall(rf"common\.{name}\[\s*(\d+)\]\s*=\s*(-?\d+)\s*;", text)]
        out[name] = [v for _, v in sorted(pairs)]
    return out


def heartwall_check(folder: Path, main_cu: Path) -> bool:
    """result.txt (built with -DOUTPUT). On the first frame the kernel
    records each point's location, the wall points of the source, and cuts
    its template from the frame; templates are read only by later frames, so
    frame 0's rows and columns are what one frame exposes. Later frames'
    tracked points are not checked."""
    want = heartwall_points(main_cu)
    text = (folder / "result.txt").read_text()
    frame = text.partition("---Frame 0---")[2].partition("---Frame 1---")[0]
    endo, _, epi = frame.partition("--endo--")[2].partition("--epi--")
    rows = [[int(v) for v in ln.split()] for part in (endo, epi) for ln in part.strip().splitlines()]
    return len(rows) == 4 and rows == [want["endoRow"], want["endoCol"], want["epiRow"], want["epiCol"]]
