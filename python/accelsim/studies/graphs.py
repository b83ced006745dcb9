"""Graphs for the BFS kernels of the studies and the PTX benchmark cases, and
a reference BFS to check what the kernels computed."""
from __future__ import annotations

import numpy as np

__all__ = ["bfs_levels", "random_graph", "rodinia_graph"]


def random_graph(n: int, deg: int, seed: int):
    """CSR (row offsets, columns) of a random undirected graph."""
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, n, (n * deg, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    both = np.unique(np.concatenate([pairs, pairs[:, ::-1]]), axis=0)
    row = np.zeros(n + 1, np.int32)
    np.add.at(row, both[:, 0] + 1, 1)
    return np.cumsum(row).astype(np.int32), both[:, 1].astype(np.int32)


def rodinia_graph(nodes: int = 4096, edges: int = 24576, seed: int = 0):
    """A random undirected graph of ``nodes`` and ``edges`` directed edges
    shaped as Rodinia's graph generator makes them: each node starts 2 to 4
    edges to random nodes, each edge is stored in both directions. Returns
    (starts, counts, adjacency) as int32 arrays (CSR)."""
    rng = np.random.default_rng(seed)
    half = edges // 2
    k = rng.integers(2, 5, size=nodes)
    while k.sum() != half:  # nudge degrees inside [2, 4] to the exact edge count
        i = rng.integers(nodes)
        if k.sum() > half and k[i] > 2:
            k[i] -= 1
        elif k.sum() < half and k[i] < 4:
            k[i] += 1
    src = np.repeat(np.arange(nodes), k)
    dst = rng.integers(0, nodes, size=half)
    a, b = np.concatenate([src, dst]), np.concatenate([dst, src])
    order = np.argsort(a, kind="stable")
    counts = np.bincount(a, minlength=nodes).astype(np.int32)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    return starts, counts, b[order].astype(np.int32)


def bfs_levels(starts, counts, adj, source: int = 0) -> np.ndarray:
    """Hop counts from ``source`` (-1 unreachable), by NumPy."""
    cost = np.full(len(starts), -1, dtype=np.int32)
    cost[source] = 0
    frontier = [source]
    while frontier:
        nxt = set()
        for v in frontier:
            for u in adj[starts[v]:starts[v] + counts[v]]:
                if cost[u] < 0:
                    cost[u] = cost[v] + 1
                    nxt.add(int(u))
        frontier = sorted(nxt)
    return cost
