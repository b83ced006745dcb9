"""References for Rodinia programs that seed their random numbers from the
clock (particlefilter: ``seed[i] = time(0) * i``; lavaMD:
``srand(time(NULL))``). The sources stay as they are, so the seed is not
chosen here: ``time()`` counts whole seconds, so it returned one of the few
seconds between the input's preparation and the check. The check replays the
program's host code for each of those seconds (the same glibc ``rand`` and
math functions, which Python's ``math`` calls) and passes when one of them
gives the program's output. A wrong result would have to equal the replay of
one of a handful of seeds."""
from __future__ import annotations

import bisect
import functools
import itertools
import math
import operator
import re
import time
from pathlib import Path

import numpy as np

from accelsim.bench.cuda_apps_rodinia import glibc_rand

__all__ = ["clock_seconds", "particlefilter_replay", "particlefilter_check", "lavamd_reference", "lavamd_check"]


def clock_seconds(start: float, end: float | None = None) -> range:
    """The values ``time()`` can have returned between ``start`` and ``end``
    (default: now), both from ``time.time()``, earliest first: the programs
    read the clock as they start, so a check mostly stops at the first."""
    return range(int(start), int(time.time() if end is None else end) + 1)


# particlefilter's linear congruential generator (GCC's constants) and pi.
_M, _A, _C, _PI = 2147483647, 1103515245, 12345, 3.1415926535897932


def _int32(v: int) -> int:
    """A C int's two's-complement wrap-around."""
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def _randu(seed: list[int], i: int) -> float:
    num = _int32(_A * seed[i] + _C)
    seed[i] = int(math.fmod(num, _M))        # C's % keeps the dividend's sign
    return abs(seed[i] / _M)


def _randn(seed: list[int], i: int) -> float:
    u, v = _randu(seed, i), _randu(seed, i)
    return math.sqrt(-2 * math.log(u)) * math.cos(2 * _PI * v)


def _video(nx: int, ny: int, frames: int, seed: list[int], byte: bool) -> list[int]:
    """videoSequence: a disk of radius 5 moving (+1, -2) a frame, 228 on a
    100 background, plus int(5 randn) noise (the float version stores bytes,
    so the sum wraps modulo 256). Index x*ny*frames + y*frames + frame."""
    size = nx * ny * frames
    dots = [0] * size
    x0, y0 = int(ny / 2.0), int(nx / 2.0)
    dots[x0 * ny * frames + y0 * frames] = 1
    for k in range(1, frames):
        pos = abs(y0 - 2 * (k - 1)) * ny * frames + abs(x0 + k - 1) * frames + k
        dots[pos if pos < size else 0] = 1
    image = [100] * size
    for z in range(frames):
        for x in range(nx):
            for y in range(ny):
                if dots[x * ny * frames + y * frames + z] != 1:
                    continue
                for a in range(max(x - 5, 0), min(x + 5, nx)):
                    for b in range(max(y - 5, 0), min(y + 5, ny)):
                        if (a - x) ** 2 + (b - y) ** 2 < 25:
                            image[a * ny * frames + b * frames + z] = 228
    for i in range(size):
        image[i] += int(5 * _randn(seed, 0))
        if byte:
            image[i] &= 0xFF
    return image


def _disk_offsets() -> list[tuple[int, int]]:
    """getneighbors: (row, column) offsets of the radius-5 disk, row-major."""
    return [(x - 4, y - 4) for x in range(9) for y in range(9) if math.sqrt((x - 4) ** 2 + (y - 4) ** 2) < 5]


def _likelihood(image: list[int], px: float, py: float, disk, ny: int, frames: int, k: int) -> float:
    size, total = len(image), 0.0
    for dx, dy in disk:
        ind = abs((int(px) + dx) * ny * frames + (int(py) + dy) * frames + k)  # roundDouble truncates
        v = image[ind if ind < size else 0]
        total += float((v - 100) ** 2 - (v - 228) ** 2) / 50.0
    return total / len(disk)


def particlefilter_replay(nx: int, ny: int, frames: int, particles: int, clock: int,
                          byte: bool = False) -> list[tuple[float, float]]:
    """The estimate (XE, YE) each frame after the first, as
    ex_particle_CUDA_*_seq.cu computes it with seed[i] = clock * i: motion
    model, likelihoods, normalized weights, then systematic resampling (the
    GPU's part: each particle takes the first CDF entry >= its u)."""
    seed = [_int32(clock * i) for i in range(particles)]
    image, disk = _video(nx, ny, frames, seed, byte), _disk_offsets()
    xs, ys = [float(int(ny / 2.0))] * particles, [float(int(nx / 2.0))] * particles
    out = []
    for k in range(1, frames):
        for p in range(particles):
            xs[p] = xs[p] + 1.0 + 5.0 * _randn(seed, p)
            ys[p] = ys[p] - 2.0 + 2.0 * _randn(seed, p)
        w = [(1 / particles) * math.exp(_likelihood(image, xs[p], ys[p], disk, ny, frames, k))
             for p in range(particles)]
        total = _c_sum(w)
        w = [v / total for v in w]
        out.append((_c_sum([x * v for x, v in zip(xs, w)]), _c_sum([y * v for y, v in zip(ys, w)])))
        cdf = [float(v) for v in itertools.accumulate(w)]
        u1 = (1 / particles) * _randu(seed, 0)
        # the first CDF entry >= u (the CDF never decreases), else the last
        picks = [min(bisect.bisect_left(cdf, u1 + p / particles), particles - 1) for p in range(particles)]
        xs, ys = [xs[c] for c in picks], [ys[c] for c in picks]
    return out


def _c_sum(values: list[float]) -> float:
    """A C loop's sum, left to right (Python's sum() compensates)."""
    return functools.reduce(operator.add, values, 0.0)


def _printed_estimates(stdout: str) -> list[tuple[float, float]]:
    xe = [float(v) for v in re.findall(r"^XE: (\S+)$", stdout, re.M)]
    ye = [float(v) for v in re.findall(r"^YE: (\S+)$", stdout, re.M)]
    return list(zip(xe, ye)) if len(xe) == len(ye) else []


def particlefilter_check(stdout: str, sizes: tuple[int, int, int, int], start: float, byte: bool = False,
                         end: float | None = None) -> bool:
    """The printed "XE:"/"YE:" lines against the replay (``sizes``: x, y,
    frames, particles) for a second of the run. The naive version prints every frame's estimate (each frame after
    the first resamples with the GPU's result); the float version runs the
    whole filter on the GPU and prints the last one (its sums are in another
    order and its exp/log/cos are CUDA's: equal to the print's 1e-6 within 2e-6)."""
    got = _printed_estimates(stdout)
    if not got:
        return False
    for clock in clock_seconds(start, end):
        want = particlefilter_replay(*sizes, clock, byte)
        want = want[-len(got):] if byte else want
        if len(want) == len(got) and all(abs(g - w) <= 2e-6 for gv, wv in zip(got, want)
                                         for g, w in zip(gv, wv)):
            return True
    return False


# lavaMD's particles per box (main.h) and alpha (main.c).
LAVAMD_PER_BOX, LAVAMD_ALPHA = 100, 0.5


def _lavamd_inputs(boxes1d: int, clock: int) -> tuple[np.ndarray, np.ndarray]:
    """rv (v, x, y, z per particle) then qv, each (rand() % 10 + 1) / 10."""
    n = boxes1d ** 3 * LAVAMD_PER_BOX
    draws = (np.array(glibc_rand(5 * n, seed=clock)) % 10 + 1) / 10.0
    return draws[:4 * n].reshape(n, 4), draws[4 * n:]


def lavamd_reference(boxes1d: int, clock: int) -> np.ndarray:
    """The forces (v, x, y, z) on each particle from every particle of its
    home box and of the up to 26 boxes around it (kernel_gpu_cuda)."""
    rv, qv = _lavamd_inputs(boxes1d, clock)
    a2, per = 2.0 * LAVAMD_ALPHA * LAVAMD_ALPHA, LAVAMD_PER_BOX
    fv = np.zeros_like(rv)
    grid = np.arange(boxes1d ** 3).reshape(boxes1d, boxes1d, boxes1d)  # [z, y, x]
    for (z, y, x), home in np.ndenumerate(grid):
        a = rv[home * per:(home + 1) * per]
        near = grid[max(z - 1, 0):z + 2, max(y - 1, 0):y + 2, max(x - 1, 0):x + 2].ravel()
        for box in near:
            b, q = rv[box * per:(box + 1) * per], qv[box * per:(box + 1) * per]
            r2 = a[:, None, 0] + b[None, :, 0] - a[:, 1:] @ b[:, 1:].T
            vij = np.exp(-a2 * r2)
            fv[home * per:(home + 1) * per, 0] += (q * vij).sum(axis=1)
            d = a[:, None, 1:] - b[None, :, 1:]
            fv[home * per:(home + 1) * per, 1:] += ((q * 2 * vij)[:, :, None] * d).sum(axis=1)
    return fv


def lavamd_check(folder: Path, boxes1d: int, start: float, end: float | None = None) -> bool:
    """result.txt (built with -DOUTPUT: "v, x, y, z" with %f per particle)
    against the reference for a second of the run (``start`` to ``end``,
    default now); the tolerance is the print's resolution."""
    got = np.array([[float(v) for v in ln.split(",")] for ln in (folder / "result.txt").read_text().splitlines()
                    if ln.strip()])
    for clock in clock_seconds(start, end):
        want = lavamd_reference(boxes1d, clock)
        if got.shape == want.shape and bool(np.all(np.abs(got - want) <= 1.5e-6 + 1e-12 * np.abs(want))):
            return True
    return False
