"""PTX mode next to SASS-trace replay on kernels that exist both ways
(docs/ptx_vs_sass.md): Rodinia-shaped BFS (examples/bfs_rodinia.cu) against
the bundled real trace of Rodinia 3.1 BFS on graph4096, and vectorAdd
(examples/basic.cu) against accelsim.tracegen's vecadd, which mirrors a real
sm_70 vecAdd trace. Each function returns per-kernel rows: name, warp
instructions, cycles."""
from __future__ import annotations

from pathlib import Path

import numpy as np

import accelsim
from accelsim.ptx.device import Device
from accelsim.ptx.module import Module

EXAMPLES = Path(__file__).parent / "examples"
BLOCK = 512  # Rodinia's MAX_THREADS_PER_BLOCK

__all__ = ["rodinia_graph", "bfs_levels", "bfs_ptx", "trace_rows", "vecadd_ptx", "vecadd_trace"]


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


def bfs_ptx(config="QV100", records: str = "lowered", graph=None) -> tuple[list[dict], np.ndarray]:
    """Runs the two-kernel BFS in PTX mode as Rodinia's host loop does (copy
    the graph, then per level: reset the flag, expand, advance), all queued
    before one synchronize (the level count comes from NumPy), so the run is
    one workload, caches carried from kernel to kernel, like the trace. Returns the per-kernel rows and the costs."""
    starts, counts, adj = graph if graph is not None else rodinia_graph()
    n = len(starts)
    levels = int(bfs_levels(starts, counts, adj).max()) + 1  # the last pass finds nothing
    mod = Module(EXAMPLES / "bfs_rodinia.ptx")
    expand, advance = mod.get_function("bfs_expand"), mod.get_function("bfs_advance")
    dev = Device(config, records=records)
    nodes = np.stack([starts, counts], axis=1).astype(np.int32)
    frontier = np.zeros(n, np.uint8)
    frontier[0] = 1
    cost = np.full(n, -1, np.int32)
    cost[0] = 0
    d_nodes, d_adj = dev.to_device(nodes), dev.to_device(adj)
    d_front, d_next = dev.to_device(frontier), dev.to_device(np.zeros(n, np.uint8))
    d_seen, d_cost = dev.to_device(frontier.copy()), dev.to_device(cost)
    d_again = dev.to_device(np.zeros(1, np.uint8))
    grid = (n + BLOCK - 1) // BLOCK
    for _ in range(levels):
        # the host's 1-byte reset of the flag, timed as the trace's MemcpyHtoD; its
        # value is not needed (the level count is known), and writing it would run
        # the queued launches first (a host write waits for them)
        dev._copied(d_again.ptr, 1)
        expand[grid, BLOCK](d_nodes, d_adj, d_front, d_next, d_seen, d_cost, np.int32(n))
        advance[grid, BLOCK](d_front, d_next, d_seen, d_again, np.int32(n))
    res = dev.synchronize()
    return _rows(res), d_cost.copy_to_host()


def _rows(res) -> list[dict]:
    k = res.kernels
    # cycles: as SimResult reports them (from the launch, 5,000 cycles of launch
    # latency on QV100 included); busy: from the first thread block to the end
    return [{"name": str(r.name), "warp_instructions": int(r.warp_instructions), "cycles": int(r.cycles),
             "busy_cycles": int(r.end_cycle - r.first_cta_cycle)} for r in k.itertuples()]


def trace_rows(kernelslist, config="QV100") -> list[dict]:
    """Per-kernel rows of a trace replayed on ``config``."""
    return _rows(accelsim.Simulator(config).run(str(kernelslist)))


def vecadd_ptx(n: int = 1 << 16, config="QV100", records: str = "lowered") -> list[dict]:
    """vectorAdd from examples/basic.ptx: a and b copied in, c zeroed."""
    dev = Device(config, records=records)
    a = np.arange(n, dtype=np.float32)
    da, db, dc = dev.to_device(a), dev.to_device(2 * a), dev.zeros(n, np.float32)
    Module(EXAMPLES / "basic.ptx").get_function("vectorAdd")[(n + 255) // 256, 256](da, db, dc, np.int32(n))
    rows = _rows(dev.synchronize())
    if not np.array_equal(dc.copy_to_host(), 3 * a):
        raise AssertionError("vectorAdd in PTX mode computed a wrong result")
    return rows


def vecadd_trace(folder, n: int = 1 << 16, config="QV100") -> list[dict]:
    """accelsim.tracegen's vecadd (a real sm_70 vecAdd's SASS) replayed."""
    from accelsim.tracegen.examples import write_vecadd

    return trace_rows(write_vecadd(folder, n=n, block=256), config)
