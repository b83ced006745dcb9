"""Inputs and result checks for the real CUDA suites (accelsim.bench.cuda_apps).
The suites ship no data sets: inputs are generated here in the formats the
programs read (their READMEs and run scripts give the sizes), and a program
without a check of its own is compared with a reference computed here from
the same input."""
from __future__ import annotations

import random
import re
from collections import deque
from pathlib import Path

__all__ = ["bfs_graph", "bfs_check", "nn_records", "nn_check", "pathfinder_check", "polybench_check",
           "lud_check", "parboil_sgemm_inputs", "parboil_sgemm_check"]


def bfs_graph(folder: Path, nodes: int, degree: int = 6, seed: int = 1) -> Path:
    """A connected random graph in Rodinia bfs's text format: the node
    count, each node's (first edge, edge count), the source, the edge count,
    then each edge's (destination, cost)."""
    rng = random.Random(seed)
    edges: list[list[int]] = [[] for _ in range(nodes)]
    for v in range(1, nodes):  # a spanning tree, then random edges (both ways)
        u = rng.randrange(v)
        edges[u].append(v)
        edges[v].append(u)
    for _ in range(nodes * (degree - 2) // 2):
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        edges[a].append(b)
        edges[b].append(a)
    lines, first = [str(nodes)], 0
    for e in edges:
        lines.append(f"{first} {len(e)}")
        first += len(e)
    lines += ["", "0", "", str(first)]
    lines += [f"{d} {rng.randrange(1, 10)}" for e in edges for d in e]
    path = folder / f"graph{nodes}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def bfs_check(folder: Path, stdout: str, graph: Path) -> bool:
    """result.txt's "i) cost:c" lines against a host BFS of the graph."""
    nums = graph.read_text().split()
    n = int(nums[0])
    starts = [(int(nums[1 + 2 * i]), int(nums[2 + 2 * i])) for i in range(n)]
    at = 1 + 2 * n
    source, m = int(nums[at]), int(nums[at + 1])
    dest = [int(nums[at + 2 + 2 * k]) for k in range(m)]
    level = [-1] * n
    level[source] = 0
    q = deque([source])
    while q:
        v = q.popleft()
        s, c = starts[v]
        for u in dest[s:s + c]:
            if level[u] < 0:
                level[u] = level[v] + 1
                q.append(u)
    got = re.findall(r"(\d+)\) cost:(-?\d+)", (folder / "result.txt").read_text())
    return len(got) == n and all(level[int(i)] == int(c) for i, c in got)


def nn_records(folder: Path, files: int, per_file: int, seed: int = 1) -> Path:
    """Hurricane records in the fixed-column format Rodinia nn reads (latitude
    at column 28, longitude at 33), and the file list naming them."""
    rng = random.Random(seed)
    names = []
    for f in range(files):
        rows = []
        for _ in range(per_file):
            lat, lng = rng.uniform(7, 70), rng.uniform(0, 358)
            rows.append(f"{rng.randrange(1950, 2005):4d} {rng.randrange(1, 13):2d} {rng.randrange(1, 29):2d} "
                        f"{rng.choice((0, 6, 12, 18)):2d} {rng.randrange(1, 29):2d} {'NAME' + str(f):<9s} "
                        f"{lat:5.1f} {lng:5.1f} {rng.randrange(10, 165):4d} {rng.randrange(900):4d}")
        name = f"cane{f}.db"
        (folder / name).write_text("\n".join(rows) + "\n")
        names.append(name)
    listing = folder / "filelist.txt"
    listing.write_text("\n".join(names) + "\n")
    return listing


def nn_check(folder: Path, stdout: str, k: int, lat: float, lng: float) -> bool:
    """The k records the program prints (each line ends with
    "--> Distance=d") are the k nearest of all records."""
    dist = []
    for db in (folder / "filelist.txt").read_text().split():
        for line in (folder / db).read_text().splitlines():
            a, b = float(line[28:33]), float(line[33:38])
            dist.append(((a - lat) ** 2 + (b - lng) ** 2) ** 0.5)
    want = sorted(dist)[:k]
    got = [float(x) for x in re.findall(r"--> Distance=([0-9.]+)", stdout)]
    return len(got) == k and all(abs(g - w) <= 1e-3 * max(1.0, w) for g, w in zip(sorted(got), want))


def pathfinder_check(folder: Path, stdout: str, cols: int, rows: int) -> bool:
    """Built with BENCH_PRINT, pathfinder prints the wall, its first row and
    the result: the shortest path sums, recomputed here from the wall."""
    lines = [ln for ln in stdout.splitlines() if re.fullmatch(r"(-?\d+ )+", ln)]
    if len(lines) < rows + 2:
        return False
    wall = [[int(x) for x in ln.split()] for ln in lines[:rows]]
    result = [int(x) for x in lines[rows + 1].split()]
    cur = wall[0][:]
    for r in range(1, rows):
        cur = [min(cur[max(c - 1, 0):c + 2]) + wall[r][c] for c in range(cols)]
    return result == cur


def polybench_check(folder: Path, stdout: str) -> bool:
    """PolyBench/GPU compares the GPU's result with its own CPU run and
    prints how many outputs differ by more than its percent threshold: every
    such count printed must be 0 (and one must be printed)."""
    counts = re.findall(r"Non-Matching CPU-GPU Outputs Beyond Error Threshold of [0-9.]+ Percent: (\d+)", stdout)
    return bool(counts) and all(int(c) == 0 for c in counts)


def lud_check(folder: Path, stdout: str) -> bool:
    """lud -v multiplies L and U back and prints each element that differs
    from the input by more than 1e-4 ("dismatch at ...")."""
    return ">>>Verify<<<<" in stdout and "dismatch" not in stdout


def _matrix_file(path: Path, rows: int, cols: int, values: list[float]) -> None:
    path.write_text(f"{rows} {cols}\n" + " ".join(f"{v:g}" for v in values) + "\n")


def parboil_sgemm_inputs(folder: Path, m: int, k: int, n: int, seed: int = 1) -> str:
    """Parboil sgemm's three inputs (A, B, B transposed: "rows cols" then
    column-major values; small integers, so the product is exact)."""
    rng = random.Random(seed)
    a = [float(rng.randrange(-3, 4)) for _ in range(m * k)]   # A[i, p] at p * m + i
    bt = [float(rng.randrange(-3, 4)) for _ in range(n * k)]  # B^T[j, p] at p * n + j
    _matrix_file(folder / "A.txt", m, k, a)
    _matrix_file(folder / "B.txt", k, n, [bt[p * n + j] for j in range(n) for p in range(k)])
    _matrix_file(folder / "BT.txt", n, k, bt)
    return "A.txt,B.txt,BT.txt"


def parboil_sgemm_check(folder: Path, files: str) -> bool:
    """C.txt (column-major C = A B) against the product computed here."""
    def read(name):
        nums = (folder / name).read_text().split()
        return int(nums[0]), int(nums[1]), [float(x) for x in nums[2:]]

    m, k, a = read("A.txt")
    n, _, bt = read("BT.txt")
    rows, cols, c = read("C.txt")
    if (rows, cols) != (m, n) or len(c) != m * n:
        return False
    return all(c[j * m + i] == sum(a[p * m + i] * bt[p * n + j] for p in range(k)) for i in range(m) for j in range(n))
