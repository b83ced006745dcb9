"""Generated inputs and references for Rodinia programs that read data files
or draw their own (hotspot, hotspot3D, srad_v1, b+tree, nw, dwt2d; heartwall,
which has no check). Each format is the one the program's own reader
parses; every generator takes a seed, so a size gives the same files on
every run. References are computed with NumPy from the same inputs."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

__all__ = ["hotspot_inputs", "hotspot_check", "hotspot3d_inputs", "hotspot3d_check", "srad_v1_image",
           "srad_v1_check", "btree_inputs", "btree_check", "glibc_rand", "dwt2d_image",
           "heartwall_video", "nw_check", "dwt2d_check"]


def _column_file(path: Path, values: np.ndarray) -> None:
    """One value a line, as hotspot's readinput reads them (sscanf "%f")."""
    path.write_text("\n".join(f"{v:.6f}" for v in values.ravel()) + "\n")


def _temps_and_power(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    # Widely spread temperatures make the diffusion term large, so a wrong
    # neighbour or boundary shows far above the output's printed precision.
    temp = rng.uniform(300.0, 400.0, n).astype(np.float32)
    power = rng.uniform(0.0, 0.5, n).astype(np.float32)
    return temp, power


def hotspot_inputs(folder: Path, grid: int, seed: int = 1) -> tuple[Path, Path]:
    """temp and power files of grid x grid cells, row-major."""
    temp, power = _temps_and_power(np.random.default_rng(seed), grid * grid)
    _column_file(folder / "temp.txt", temp)
    _column_file(folder / "power.txt", power)
    return folder / "temp.txt", folder / "power.txt"


def _read_column(path: Path) -> np.ndarray:
    return np.array(path.read_text().split(), dtype=np.float32)


def _read_indexed(path: Path) -> np.ndarray:
    """The programs' output: "index<TAB>value" lines written with %g."""
    return np.array([float(ln.split()[1]) for ln in path.read_text().splitlines() if ln.strip()])


# Rodinia's chip constants (hotspot.cu, 3D.cu).
T_CHIP, CHIP_H, CHIP_W, AMB = 0.0005, 0.016, 0.016, 80.0
MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI, FACTOR_CHIP = 3.0e6, 0.001, 1.75e6, 100, 0.5


def _hotspot_reference(temp: np.ndarray, power: np.ndarray, grid: int, iterations: int) -> np.ndarray:
    """The 2-D transient step, each cell from its four neighbours with the
    edge cell standing in for a missing one, as calculate_temp computes it."""
    f = np.float32
    h, w = f(CHIP_H) / f(grid), f(CHIP_W) / f(grid)
    cap = f(FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP) * w * h
    rx, ry = f(w / (2.0 * K_SI * T_CHIP * h)), f(h / (2.0 * K_SI * T_CHIP * w))
    rz = f(T_CHIP / (K_SI * h * w))
    step = f(PRECISION / f(MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI)))
    sdc, rx1, ry1, rz1 = step / cap, f(1) / rx, f(1) / ry, f(1) / rz
    t, p = temp.reshape(grid, grid).astype(np.float32), power.reshape(grid, grid).astype(np.float64)
    for _ in range(iterations):
        pad = np.pad(t, 1, mode="edge").astype(np.float64)
        c = pad[1:-1, 1:-1]
        n, s, wv, e = pad[:-2, 1:-1], pad[2:, 1:-1], pad[1:-1, :-2], pad[1:-1, 2:]
        t = (c + float(sdc) * (p + (s + n - 2.0 * c) * float(ry1) + (e + wv - 2.0 * c) * float(rx1)
                               + (AMB - c) * float(rz1))).astype(np.float32)
    return t.ravel()


def hotspot_check(folder: Path, grid: int, iterations: int) -> bool:
    """output.txt against the reference; the tolerance is the %g print's
    resolution, and the step must move the cells well beyond it."""
    temp, power = _read_column(folder / "temp.txt"), _read_column(folder / "power.txt")
    want = _hotspot_reference(temp, power, grid, iterations)
    got = _read_indexed(folder / "output.txt")
    moved = float(np.max(np.abs(want - temp)))
    return got.shape == want.shape and moved > 0.1 and bool(np.all(np.abs(got - want) <= 2e-3 + 1e-5 * want))


def hotspot3d_inputs(folder: Path, grid: int, layers: int, seed: int = 1) -> tuple[Path, Path]:
    """power and temp files of grid x grid x layers cells (3D.cu's readinput
    order: row, column, then layer fastest)."""
    temp, power = _temps_and_power(np.random.default_rng(seed), grid * grid * layers)
    _column_file(folder / "power3d.txt", power)
    _column_file(folder / "temp3d.txt", temp)
    return folder / "power3d.txt", folder / "temp3d.txt"


def hotspot3d_check(stdout: str) -> bool:
    """3D.cu runs the same steps on the CPU and prints the RMS difference
    ("Accuracy: e"); single precision leaves it far below 1e-3."""
    m = re.search(r"Accuracy:\s*([-+0-9.eE]+|nan|inf)", stdout)
    return m is not None and float(m.group(1)) < 1e-3


# srad_v1 reads a fixed 502 x 458 picture from this path, relative to its
# working folder, and resizes it to the rows and columns it is given.
SRAD_IMAGE = Path("data") / "srad" / "image.pgm"
SRAD_WORKDIR = "run/srad/v1"
SRAD_ROWS, SRAD_COLS = 502, 458


def srad_v1_image(folder: Path, seed: int = 1) -> Path:
    """A speckled picture (smooth shapes times multiplicative noise, as
    ultrasound is) in the ASCII PGM the program reads: three header lines,
    then 502 lines of 458 grey levels."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:SRAD_ROWS, 0:SRAD_COLS]
    shape = 90 + 60 * np.sin(x / 37.0) * np.cos(y / 23.0) + 40 * ((x - 229) ** 2 + (y - 251) ** 2 < 120 ** 2)
    img = np.clip(shape * rng.gamma(4.0, 0.25, shape.shape), 0, 255).astype(int)
    path = folder / SRAD_IMAGE
    path.parent.mkdir(parents=True, exist_ok=True)
    (folder / SRAD_WORKDIR).mkdir(parents=True, exist_ok=True)
    rows = "\n".join(" ".join(map(str, r)) for r in img)
    path.write_text(f"P2\n{SRAD_COLS} {SRAD_ROWS}\n255\n{rows}\n")
    return path


def _read_pgm(path: Path, rows: int, cols: int) -> np.ndarray:
    nums = path.read_text().split("\n", 3)[3].split()
    return np.array(nums[:rows * cols], dtype=np.float64).reshape(rows, cols)


def _srad_reference(img: np.ndarray, niter: int, lam: float) -> np.ndarray:
    """extract, niter x (statistics, srad, srad2), compress (main.cu's
    kernels) on the image as rows x cols."""
    i = np.exp(img / 255.0)
    for _ in range(niter):
        mean = i.mean()
        q0 = (np.mean(i * i) - mean * mean) / (mean * mean)
        pad = np.pad(i, 1, mode="edge")
        dn, ds = pad[:-2, 1:-1] - i, pad[2:, 1:-1] - i
        dw, de = pad[1:-1, :-2] - i, pad[1:-1, 2:] - i
        g2 = (dn * dn + ds * ds + dw * dw + de * de) / (i * i)
        lap = (dn + ds + dw + de) / i
        qsqr = (0.5 * g2 - (1.0 / 16.0) * lap * lap) / (1 + 0.25 * lap) ** 2
        c = np.clip(1.0 / (1.0 + (qsqr - q0) / (q0 * (1 + q0))), 0, 1)
        cs = np.vstack([c[1:], c[-1:]])        # south neighbour's coefficient
        ce = np.hstack([c[:, 1:], c[:, -1:]])  # east neighbour's coefficient
        i = i + 0.25 * lam * (c * dn + cs * ds + c * dw + ce * de)
    return np.log(i) * 255


def srad_v1_check(folder: Path, niter: int, lam: float, rows: int, cols: int) -> bool:
    """image_out.pgm against the reference: grey levels are truncated to
    integers, so each may differ by one; the diffusion must change many."""
    src = _read_pgm(folder / SRAD_IMAGE, SRAD_ROWS, SRAD_COLS)
    img = src[np.arange(rows) % SRAD_ROWS][:, np.arange(cols) % SRAD_COLS]  # resize.c wraps around
    want = _srad_reference(img, niter, lam)
    got = _read_pgm(folder / SRAD_WORKDIR / "image_out.pgm", rows, cols)
    changed = np.mean(np.abs(want - img) >= 2)
    return changed > 0.1 and bool(np.all(np.abs(got - np.trunc(want)) <= 1))


def glibc_rand(count: int, seed: int = 1) -> list[int]:
    """The first ``count`` values of glibc's rand() after srand(seed) (the
    additive feedback generator; programs that never call srand use seed
    1). b+tree draws its query keys from it."""
    r = [seed]
    for k in range(1, 31):
        r.append((16807 * r[k - 1]) % 2147483647)
    r += [r[k - 31] for k in range(31, 34)]
    out = []
    for k in range(34, 344 + count):
        r.append((r[k - 31] + r[k - 3]) & 0xFFFFFFFF)
        if k >= 344:
            out.append(r[k] >> 1)
    return out


def btree_inputs(folder: Path, records: int, queries: int, ranges: int, seed: int = 1) -> None:
    """The keys 0 .. records-1 in a shuffled order (first line: their
    count), and a command file: ``k`` (find ``queries`` keys), then ``j``
    (``ranges`` range searches). main.c's parser reads j's first number
    twice, so the span of each range is ``ranges`` keys as well."""
    keys = np.random.default_rng(seed).permutation(records)
    (folder / "tree.txt").write_text(f"{records}\n" + "\n".join(map(str, keys)) + "\n")
    (folder / "command.txt").write_text(f"k {queries}\nj {ranges} {ranges}\n")


def _btree_draws(records: int, queries: int, ranges: int, span: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The keys and ranges main.c draws: (rand()/(float)RAND_MAX)*size in
    single precision, truncated; a range past the end is shifted back."""
    f = np.float32
    draws = [int(f(f(v) / f(2147483647)) * f(records)) for v in glibc_rand(queries + ranges)]
    spans = []
    for s in draws[queries:]:
        e = s + span
        if e >= records:
            s, e = s - (e - records), records - 1
        spans.append((s, e))
    return draws[:queries], spans


def btree_check(folder: Path, records: int, queries: int, ranges: int) -> bool:
    """output.txt: each found key's record (the tree holds every key as its
    own value), and each range's first record and length (records are laid
    out in key order, so the range [s, e] starts at record s). The span is
    the rSize the program reports."""
    text = (folder / "output.txt").read_text()
    k_part, _, j_part = text.partition("command: j")
    span = re.search(r"rSize=(\d+)", j_part)
    if span is None:
        return False
    keys, spans = _btree_draws(records, queries, ranges, int(span.group(1)))
    found = [int(v) for _, v in re.findall(r"^(\d+)\s+(-?\d+)\s*$", k_part, re.M)]
    rng = [(int(a), int(b)) for _, a, b in re.findall(r"^(\d+)\s+(-?\d+)\s+(-?\d+)\s*$", j_part, re.M)]
    want_k = [k if k < records else -1 for k in keys]
    return found == want_k and rng == [(s, e - s + 1) for s, e in spans]


def dwt2d_image(folder: Path, side: int, seed: int = 1) -> Path:
    """dwt2d's getImg reads width x height x 3 raw bytes (interleaved RGB,
    no header) from the file it is given: smooth colour gradients with
    noise, so the transform has structure at every level."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:side, 0:side] / side
    rgb = np.stack([128 + 100 * np.sin(6 * x), 128 + 100 * np.cos(5 * y), 255 * x * y], axis=2)
    img = np.clip(rgb + rng.normal(0, 8, rgb.shape), 0, 255).astype(np.uint8)
    path = folder / "image.rgb"
    path.write_bytes(img.tobytes())
    return path


def _riff_chunk(tag: bytes, data: bytes) -> bytes:
    return tag + len(data).to_bytes(4, "little") + data + b"\0" * (len(data) % 2)


def _riff_list(kind: bytes, body: bytes) -> bytes:
    return b"LIST" + (len(body) + 4).to_bytes(4, "little") + kind + body


def _u32(*values: int) -> bytes:
    return b"".join(v.to_bytes(4, "little") for v in values)


def heartwall_video(folder: Path, frames: int, width: int = 609, height: int = 590, seed: int = 1) -> Path:
    """An uncompressed AVI of 8-bit grey frames as avilib reads it (RIFF
    'AVI ', hdrl with avih and one 'vids' stream whose strf gives the size,
    a movi list of '00db' chunks; no idx1, so avilib indexes the chunks
    itself). The size is the suite's video's, since heartwall's initial
    wall points are fixed in its source. The frames show two bright rings
    (the heart walls) in speckle that move a little from frame to frame."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    chunks = []
    for f in range(frames):
        cy, cx = 300 + 2 * np.sin(f / 3), 300 + 2 * np.cos(f / 3)
        r = np.hypot(y - cy, x - cx)
        walls = 150 * np.exp(-((r - 150) / 12) ** 2) + 110 * np.exp(-((r - 230) / 15) ** 2)
        img = np.clip((30 + walls) * rng.gamma(6.0, 1 / 6.0, walls.shape), 0, 255).astype(np.uint8)
        chunks.append(_riff_chunk(b"00db", img.tobytes()))
    size = width * height
    avih = _u32(40000, size * 25, 0, 0, frames, 0, 1, size, width, height, 0, 0, 0, 0)
    strh = b"vids" + b"\0\0\0\0" + _u32(0, 0, 0, 1, 25, 0, frames, size, 0, 0) + b"\0" * 8
    strf = _u32(40, width, height) + (1).to_bytes(2, "little") + (8).to_bytes(2, "little") + _u32(0, size, 0, 0, 0, 0)
    hdrl = _riff_list(b"hdrl", _riff_chunk(b"avih", avih)
                      + _riff_list(b"strl", _riff_chunk(b"strh", strh) + _riff_chunk(b"strf", strf)))
    body = b"AVI " + hdrl + _riff_list(b"movi", b"".join(chunks))
    path = folder / "video.avi"
    path.write_bytes(b"RIFF" + len(body).to_bytes(4, "little") + body)
    return path


def _nw_scores(n: int, penalty: int, blosum: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """needle.cu's matrices: both sequences from rand() % 10 + 1 after
    srand(7) (rows first), the BLOSUM62 reference, and the Needleman-Wunsch
    scores with the gap penalty on the first row and column."""
    m = n + 1
    draws = [v % 10 + 1 for v in glibc_rand(2 * n, seed=7)]
    rows, cols = [0] + draws[:n], [0] + draws[n:]
    ref = np.zeros((m, m), dtype=np.int64)
    for i in range(1, m):
        for j in range(1, m):
            ref[i, j] = blosum[rows[i]][cols[j]]
    f = np.zeros((m, m), dtype=np.int64)
    f[0, :] = -np.arange(m) * penalty
    f[:, 0] = -np.arange(m) * penalty
    for i in range(1, m):
        for j in range(1, m):
            f[i, j] = max(f[i - 1, j - 1] + ref[i, j], f[i, j - 1] - penalty, f[i - 1, j] - penalty)
    return f, ref


def _nw_traceback(f: np.ndarray, ref: np.ndarray, penalty: int) -> list[int]:
    """The values needle.cu's TRACEBACK block prints, walked the same way
    (it starts at (n-1, n-1) and prefers the diagonal, then left, then up,
    the last match winning)."""
    limit, i = -999, len(f) - 2
    j, out = i, [int(f[i, i])]
    while not (i == 0 and j == 0):
        nw = f[i - 1, j - 1] if i > 0 and j > 0 else limit
        w = f[i, j - 1] if j > 0 else limit
        n = f[i - 1, j] if i > 0 else limit
        new = (nw + ref[i, j], w - penalty, n - penalty)
        t = max(new)
        t = nw if t == new[0] else t
        t = w if t == new[1] else t
        t = n if t == new[2] else t
        out.append(int(t))
        if t == nw:
            i, j = i - 1, j - 1
        elif t == w:
            j -= 1
        else:
            i -= 1
    return out


def nw_check(folder: Path, n: int, penalty: int, source: Path) -> bool:
    """result.txt (built with -DTRACEBACK) against the traceback of the
    scores computed here; BLOSUM62 is read from the program's source."""
    table = source.read_text(errors="replace").split("blosum62[24][24] = {", 1)[1].split("};", 1)[0]
    nums = [int(v) for v in re.findall(r"-?\d+", table)]
    blosum = [nums[24 * r:24 * r + 24] for r in range(24)]
    f, ref = _nw_scores(n, penalty, blosum)
    got = [int(v) for v in (folder / "result.txt").read_text().split(":", 1)[1].split()]
    return got == _nw_traceback(f, ref, penalty)


def _lift53(x: np.ndarray) -> np.ndarray:
    """One forward 5/3 lifting pass along axis 0 (even length): predict
    c -= (p + n) / 2, update c += (p + n + 2) / 4, C division (toward
    zero), mirrored edges; low-pass rows first, then high-pass."""
    even, odd = x[0::2].copy(), x[1::2].copy()
    right = np.concatenate([even[1:], even[-1:]])           # x[2k+2], mirrored to x[n-2] at the end
    odd -= np.fix((even + right) / 2).astype(np.int64)
    left = np.concatenate([odd[:1], odd[:-1]])              # d[k-1], mirrored to d[0] at the start
    even += np.fix((left + odd + 2) / 4).astype(np.int64)
    return np.concatenate([even, odd])


def _dwt53_linear(img: np.ndarray, levels: int) -> np.ndarray:
    """fdwt53's result in the order writeLinear stores it: per level, the
    bands LL, HL, LH, HH one after another (each row-major at its own
    width), the next level transforming the LL band in place."""
    out = np.zeros(img.size, dtype=np.int64)
    cur = img.astype(np.int64)
    for _ in range(levels):
        h, w = cur.shape
        t = _lift53(_lift53(cur).T).T                        # vertical pass, then horizontal
        hl, wl = h // 2, w // 2
        bands = [t[:hl, :wl], t[:hl, wl:], t[hl:, :wl], t[hl:, wl:]]
        flat = np.concatenate([b.ravel() for b in bands])
        out[:flat.size] = flat
        cur = t[:hl, :wl]
    return out


def dwt2d_check(folder: Path, side: int, levels: int) -> bool:
    """image.rgb.dwt.r/.g/.b (built with -DOUTPUT: coefficients + 128,
    clamped to bytes) against the transform of each colour computed here."""
    img = np.frombuffer((folder / "image.rgb").read_bytes(), np.uint8).reshape(side, side, 3).astype(np.int64) - 128
    for c, suffix in enumerate("rgb"):
        want = np.clip(_dwt53_linear(img[:, :, c], levels) + 128, 0, 255)
        got = np.frombuffer((folder / f"image.rgb.dwt.{suffix}").read_bytes(), np.uint8)
        if got.shape != want.shape or not np.array_equal(got, want):
            return False
    return True
