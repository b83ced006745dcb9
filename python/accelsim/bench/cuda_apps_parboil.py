"""Generated data sets and references for Parboil programs (stencil,
mri-q, histo, tpacf, cutcp, mri-gridding; lbm, which has no check). The
suite's data sets are not part of the sources; each generator writes the
layout the program's own reader expects (binary files little-endian, as its
file code requires), from a seed, and each reference is computed with NumPy
from the same file."""
from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["stencil_input", "stencil_check", "mriq_input", "mriq_check", "histo_input", "histo_check",
           "tpacf_inputs", "tpacf_check",
           "cutcp_input", "cutcp_check",
           "mri_gridding_input", "mri_gridding_check",
           "lbm_obstacles", "LBM_SIZE"]


def stencil_input(folder: Path, nx: int, ny: int, nz: int, seed: int = 1) -> None:
    """nx*ny*nz floats, x fastest (main.cu's read_data), no header."""
    np.random.default_rng(seed).random(nx * ny * nz, dtype=np.float32).tofile(folder / "input.bin")


def _stencil_reference(a: np.ndarray, steps: int) -> np.ndarray:
    """The 7-point Jacobi step on the interior, boundary cells kept
    (c0 = 1/6, c1 = 1/36, as main.cu sets them)."""
    c0, c1 = np.float32(1.0 / 6.0), np.float32(1.0 / 6.0 / 6.0)
    for _ in range(steps):
        nxt = a.copy()
        core = (a[2:, 1:-1, 1:-1] + a[:-2, 1:-1, 1:-1] + a[1:-1, 2:, 1:-1] + a[1:-1, :-2, 1:-1]
                + a[1:-1, 1:-1, 2:] + a[1:-1, 1:-1, :-2])
        nxt[1:-1, 1:-1, 1:-1] = core * c1 - a[1:-1, 1:-1, 1:-1] * c0
        a = nxt
    return a


def stencil_check(folder: Path, nx: int, ny: int, nz: int, steps: int) -> bool:
    """output.bin (u32 count, then the grid) against the reference."""
    a = np.fromfile(folder / "input.bin", dtype=np.float32).reshape(nz, ny, nx)
    want = _stencil_reference(a, steps).ravel()
    raw = (folder / "output.bin").read_bytes()
    if len(raw) < 4 or int(np.frombuffer(raw[:4], np.uint32)[0]) != want.size:
        return False
    got = np.frombuffer(raw[4:], dtype=np.float32)
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=1e-5, atol=1e-6))


def mriq_input(folder: Path, num_k: int, num_x: int, seed: int = 1) -> None:
    """file.cc's layout: int numK, int numX, then kx, ky, kz (numK each),
    x, y, z (numX each), phiR, phiI (numK each), all float32. numX must be
    a multiple of 256 (ComputeQ_GPU has no bounds check) and numK even
    (an odd count takes a path that reads the first k value only)."""
    rng = np.random.default_rng(seed)
    k = rng.uniform(-0.5, 0.5, (3, num_k)).astype(np.float32)
    x = rng.uniform(-1.0, 1.0, (3, num_x)).astype(np.float32)
    phi = rng.uniform(-1.0, 1.0, (2, num_k)).astype(np.float32)
    with open(folder / "input.bin", "wb") as f:
        np.array([num_k, num_x], dtype=np.int32).tofile(f)
        for arr in (k, x, phi):
            arr.tofile(f)


def mriq_check(folder: Path) -> bool:
    """output.bin (u32 numX, Qr, Qi) against Q(x) = sum_k |phi_k|^2
    exp(i 2 pi k.x), to single precision's accumulated rounding."""
    raw = (folder / "input.bin").read_bytes()
    num_k, num_x = (int(v) for v in np.frombuffer(raw[:8], np.int32))
    vals = np.frombuffer(raw[8:], np.float32).astype(np.float64)
    k = vals[:3 * num_k].reshape(3, num_k)
    x = vals[3 * num_k:3 * num_k + 3 * num_x].reshape(3, num_x)
    phi = vals[3 * num_k + 3 * num_x:].reshape(2, num_k)
    mag = phi[0] ** 2 + phi[1] ** 2
    arg = 2 * np.pi * (x.T @ k)
    want_r, want_i = np.cos(arg) @ mag, np.sin(arg) @ mag
    out = (folder / "output.bin").read_bytes()
    if len(out) != 4 + 8 * num_x or int(np.frombuffer(out[:4], np.uint32)[0]) != num_x:
        return False
    got = np.frombuffer(out[4:], np.float32).reshape(2, num_x)
    tol = 1e-4 * mag.sum()
    return bool(np.all(np.abs(got[0] - want_r) <= tol) and np.all(np.abs(got[1] - want_i) <= tol))


def histo_input(folder: Path, width: int, height: int, bins_w: int, bins_h: int, seed: int = 1) -> None:
    """main.cu's layout: u32 image width, height, histogram width, height,
    then the image's bin indices (u32, row-major). The values cluster at the
    histogram's centre, as the suite's description says its input does.
    main.cu sizes its device histograms by the image width times the
    histogram height and clears whole 24 Ki-bin blocks: the image must be
    at least as wide as the histogram, the bins a multiple of 24576, and
    the image height a multiple of 16 (histo_intermediates has no bounds
    check)."""
    rng = np.random.default_rng(seed)
    bins = bins_w * bins_h
    img = np.clip(rng.normal(bins / 2, bins / 10, width * height), 0, bins - 1).astype(np.uint32)
    with open(folder / "input.bin", "wb") as f:
        np.array([width, height, bins_w, bins_h], dtype=np.uint32).tofile(f)
        img.tofile(f)


def _histo_red(counts: np.ndarray) -> np.ndarray:
    """util.cu's colour of a bin: red = (unsigned)(255 * cbrt(1 + 63 v / 255)
    / 4) in single precision for a count v saturated at 255; black for 0."""
    v = np.minimum(counts, 255).astype(np.float32)
    level = (np.cbrt(1 + 63.0 * v.astype(np.float64) / 255.0) / 4).astype(np.float32)
    red = (level * np.float32(255)).astype(np.uint32)
    return np.where(counts == 0, 0, red).astype(np.uint8)


def histo_check(folder: Path) -> bool:
    """The BMP the program writes (54-byte header, rows bottom-up, B G R,
    each row padded to 4 bytes) against the reference histogram's colours."""
    raw = (folder / "input.bin").read_bytes()
    width, height, bw, bh = (int(v) for v in np.frombuffer(raw[:16], np.uint32))
    img = np.frombuffer(raw[16:], np.uint32)[:width * height]
    want = _histo_red(np.bincount(img, minlength=bw * bh)).reshape(bh, bw)
    bmp = (folder / "output.bmp").read_bytes()
    row = (bw * 3 + 3) // 4 * 4
    if bmp[:2] != b"BM" or len(bmp) < 54 + row * bh:
        return False
    px = np.frombuffer(bmp[54:54 + row * bh], np.uint8).reshape(bh, row)[::-1, :bw * 3].reshape(bh, bw, 3)
    return bool(np.all(px[:, :, 2] == want) and not px[:, :, :2].any())


def tpacf_inputs(folder: Path, points: int, random_sets: int, seed: int = 1) -> str:
    """One data file and ``random_sets`` random files of ``points`` lines
    "ra dec" in degrees (model_io.cc's reader): points uniform on the sphere,
    the data set with clusters so its correlation differs from the random
    sets'. Returns the comma-separated list for -i."""
    rng = np.random.default_rng(seed)
    names = []
    for s in range(random_sets + 1):
        v = rng.normal(size=(points, 3))
        if s == 0:  # clusters: half the points scattered tightly around a few centres
            centres = rng.normal(size=(8, 3))
            v[: points // 2] = centres[rng.integers(0, 8, points // 2)] + 0.02 * rng.normal(size=(points // 2, 3))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        ra, dec = np.degrees(np.arctan2(v[:, 1], v[:, 0])) % 360, np.degrees(np.arcsin(v[:, 2]))
        name = "data.txt" if s == 0 else f"random{s}.txt"
        (folder / name).write_text("".join(f"{a:.6f} {d:.6f}\n" for a, d in zip(ra, dec)))
        names.append(name)
    return ",".join(names)


def _sky(path: Path) -> np.ndarray:
    """model_io.cc's conversion to unit vectors, in single precision."""
    ra, dec = np.loadtxt(path, dtype=np.float32, ndmin=2).T
    r, d = (np.radians(ra.astype(np.float64))).astype(np.float32), np.radians(dec.astype(np.float64)).astype(np.float32)
    cd = np.cos(d)
    return np.stack([np.cos(r) * cd, np.sin(r) * cd, np.sin(d)], axis=1).astype(np.float32)


def _tpacf_bins(a: np.ndarray, b: np.ndarray, self_pairs: bool) -> np.ndarray:
    """Pair counts per angular bin: 20 bins, 5 a decade from 1 to 10^4
    arcmin, by the cosine of the separation (tpacf_kernel.cu's binb)."""
    edges = np.cos(np.radians(10.0 ** (np.arange(21) / 5.0) / 60.0)).astype(np.float32)
    dot = (a.astype(np.float64) @ b.astype(np.float64).T)
    if self_pairs:
        dot = dot[np.triu_indices(len(a), 1)]
    dot = dot.ravel()
    # bin k holds edges[k+1] <= d < edges[k]
    idx = np.searchsorted(-edges.astype(np.float64), -dot, side="right") - 1
    return np.bincount(idx[(idx >= 0) & (idx < 20)], minlength=20)


def tpacf_check(folder: Path, files: str) -> bool:
    """output.txt (per bin: DD, DR, RR summed over the random sets) against
    the pair counts computed here; a pair within single precision's rounding
    of a bin edge may fall on either side, so a bin may differ by a couple
    of pairs."""
    sets = [_sky(folder / n) for n in files.split(",")]
    dd = _tpacf_bins(sets[0], sets[0], True)
    dr = sum(_tpacf_bins(sets[0], r, False) for r in sets[1:])
    rr = sum(_tpacf_bins(r, r, True) for r in sets[1:])
    want = np.stack([dd, dr, rr], axis=1).ravel()
    got = np.array((folder / "output.txt").read_text().split(), dtype=np.int64)
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= 2 + 1e-3 * want))


def cutcp_input(folder: Path, atoms: int, box: float, seed: int = 1) -> None:
    """A PQR file ("ATOM serial name residue resseq x y z charge", the
    fields readatom.c scans) of ``atoms`` charged atoms in a cube of side
    ``box`` Angstroms; no charge is zero (the program skips those)."""
    rng = np.random.default_rng(seed)
    pos = rng.uniform(0.0, box, (atoms, 3))
    q = rng.choice([-1.0, 1.0], atoms) * rng.uniform(0.1, 1.0, atoms)
    (folder / "input.pqr").write_text("".join(
        f"ATOM  {n + 1:5d}  C   ALA {n // 10 + 1:4d} {x:8.3f} {y:8.3f} {z:8.3f} {c:7.4f}\n"
        for n, ((x, y, z), c) in enumerate(zip(pos, q))))


def _cutcp_reference(folder: Path) -> np.ndarray:
    """main.c's lattice (0.5 A spacing over the atoms' extent padded by
    0.5 A), the potential sum q (1 - r^2/c^2)^2 / r over atoms within the
    12 A cutoff, then points closer than 1 A to an atom set to zero."""
    rows = [ln.split() for ln in (folder / "input.pqr").read_text().splitlines() if ln.startswith("ATOM")]
    atoms = np.array([[float(v) for v in r[5:9]] for r in rows], dtype=np.float32)
    pos, q = atoms[:, :3].astype(np.float64), atoms[:, 3].astype(np.float64)
    f = np.float32
    lo, hi = atoms[:, :3].min(axis=0) - f(0.5), atoms[:, :3].max(axis=0) + f(0.5)
    n = (np.floor((hi - lo) / f(0.5)) + 1).astype(int)
    axes = [lo[d].astype(np.float64) + 0.5 * np.arange(n[d]) for d in range(3)]
    z, y, x = np.meshgrid(axes[2], axes[1], axes[0], indexing="ij")
    pts = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    pot = np.zeros(len(pts))
    near = np.zeros(len(pts), dtype=bool)
    for a, c in zip(pos, q):
        r2 = np.sum((pts - a) ** 2, axis=1)
        inside = r2 < 144.0
        pot[inside] += c * (1 - r2[inside] / 144.0) ** 2 / np.sqrt(r2[inside])
        near |= r2 < 1.0
    pot[near] = 0.0
    return pot.reshape(n[2], n[1] * n[0])


def cutcp_check(folder: Path) -> bool:
    """output.bin (output.c: float sum of |potential|, u32 plane size, the
    planes z = 0 and z = nz - 1) against the reference."""
    want = _cutcp_reference(folder)
    raw = (folder / "output.bin").read_bytes()
    plane = want.shape[1]
    if len(raw) != 8 + 8 * plane or int(np.frombuffer(raw[4:8], np.uint32)[0]) != plane:
        return False
    total = float(np.frombuffer(raw[:4], np.float32)[0])
    got = np.frombuffer(raw[8:], np.float32).reshape(2, plane)
    scale = float(np.abs(want).max())
    return (abs(total - np.abs(want).sum()) <= 1e-4 * np.abs(want).sum()
            and bool(np.allclose(got, want[[0, -1]], rtol=1e-4, atol=1e-5 * scale)))


def mri_gridding_input(folder: Path, samples: int, matrix: int, seed: int = 1) -> None:
    """The parameter file setParameters scans (``input.txt``) and its
    ``input.txt.data``: ``samples`` records of six float32 (real, imag, kX,
    kY, kZ, sdc), k-space positions uniform in [-kMax, kMax) with kMax 0.5,
    a ``matrix``^3 reconstruction gridded at 2x oversampling with a kernel
    of width 4 (the look-up table on)."""
    rng = np.random.default_rng(seed)
    rec = np.zeros((samples, 6), dtype=np.float32)
    rec[:, :2] = rng.normal(size=(samples, 2))
    rec[:, 2:5] = rng.uniform(-0.5, 0.5, (samples, 3))
    rec[:, 5] = rng.uniform(0.5, 1.5, samples)
    g = 2 * matrix
    (folder / "input.txt").write_text(
        f"aquisition.numsamples={samples}\naquisition.kmax=0.5 0.5 0.5\n"
        f"aquisition.matrixSize={matrix} {matrix} {matrix}\nreconstruction.matrixSize={matrix} {matrix} {matrix}\n"
        f"gridding.matrixSize={g} {g} {g}\ngridding.oversampling=2.0\nkernel.width=4.0\nkernel.useLUT=1\n")
    rec.tofile(folder / "input.txt.data")


def mri_gridding_check(folder: Path) -> bool:
    """main.cu grids on the CPU too and writes 1 to its output when every
    sample density matches the GPU's exactly."""
    raw = (folder / "output.bin").read_bytes()
    return len(raw) == 4 and int(np.frombuffer(raw, np.int32)[0]) == 1


# lbm's grid is fixed at compile time (layout_config.h): 120 x 120 x 150 cells.
LBM_SIZE = (120, 120, 150)


def lbm_obstacles(folder: Path, spheres: int, seed: int = 1) -> None:
    """The obstacle file LBM_loadObstacleFile reads: for each z, SIZE_Y
    lines of SIZE_X characters ('.' fluid, '#' obstacle) and an empty line
    (the size main.cc checks). The obstacles are random spheres."""
    nx, ny, nz = LBM_SIZE
    rng = np.random.default_rng(seed)
    z, y, x = np.mgrid[0:nz, 0:ny, 0:nx]
    solid = np.zeros((nz, ny, nx), dtype=bool)
    for cx, cy, cz, r in zip(rng.uniform(10, nx - 10, spheres), rng.uniform(10, ny - 10, spheres),
                             rng.uniform(10, nz - 10, spheres), rng.uniform(3, 10, spheres)):
        solid |= (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 < r * r
    chars = np.where(solid, ord("#"), ord("."))
    lines = np.concatenate([chars, np.full((nz, ny, 1), ord("\n"))], axis=2).reshape(nz, -1)
    body = np.concatenate([lines, np.full((nz, 1), ord("\n"))], axis=1).astype(np.uint8)
    (folder / "obstacles.txt").write_bytes(body.tobytes())
