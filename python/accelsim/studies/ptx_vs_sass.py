"""PTX mode next to SASS-trace replay on kernels that exist both ways
(docs/ptx_vs_sass.md): Rodinia-shaped BFS (examples/bfs_rodinia.cu) against
the bundled real trace of Rodinia 3.1 BFS on graph4096, and vectorAdd
(examples/basic.cu) against accelsim.tracegen's vecadd, which mirrors a real
sm_70 vecAdd trace. Each function returns per-kernel rows: name, warp
instructions, cycles."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from accelsim.ptx import EXAMPLES, Device, Module
from accelsim.sim import Simulator
from accelsim.studies.doc_section import print_or_write
from accelsim.studies.graphs import bfs_levels, rodinia_graph
BLOCK = 512  # Rodinia's MAX_THREADS_PER_BLOCK

__all__ = ["rodinia_graph", "bfs_levels", "bfs_ptx", "trace_rows", "vecadd_ptx", "vecadd_trace"]


def bfs_ptx(config="QV100", records: str = "lowered", graph=None, **device) -> tuple[list[dict], np.ndarray]:
    """Runs the two-kernel BFS in PTX mode as Rodinia's host loop does (copy
    the graph, then per level: reset the flag, expand, advance), all queued
    before one synchronize (the level count comes from NumPy), so the run is
    one workload, caches carried from kernel to kernel, like the trace. Returns the per-kernel rows and the costs."""
    starts, counts, adj = graph if graph is not None else rodinia_graph()
    n = len(starts)
    levels = int(bfs_levels(starts, counts, adj).max()) + 1  # the last pass finds nothing
    mod = Module(EXAMPLES / "bfs_rodinia.ptx")
    expand, advance = mod.get_function("bfs_expand"), mod.get_function("bfs_advance")
    dev = Device(config, records=records, **device)
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
        # the host's 1-byte reset of the flag, timed as the trace's MemcpyHtoD (the
        # level count is known, so the flag is never read back: the trace has no
        # device-to-host copy either)
        d_again.copy_from_host(np.zeros(1, np.uint8))
        expand[grid, BLOCK](d_nodes, d_adj, d_front, d_next, d_seen, d_cost, np.int32(n))
        advance[grid, BLOCK](d_front, d_next, d_seen, d_again, np.int32(n))
    res = dev.synchronize()
    return _rows(res), d_cost.copy_to_host()


def _rows(res) -> list[dict]:
    k = res.kernels
    # cycles: as SimResult reports them (from the launch, 5,000 cycles of launch
    # latency on QV100 included); busy: from the first thread block to the end
    return [{"name": str(r.name), "warp_instructions": int(r.warp_instructions),
             "thread_instructions": int(r.thread_instructions), "cycles": int(r.cycles),
             "busy_cycles": int(r.sm_elapsed_cycles)} for r in k.itertuples()]


def trace_rows(kernelslist, config="QV100") -> list[dict]:
    """Per-kernel rows of a trace replayed on ``config``."""
    return _rows(Simulator(config).run(str(kernelslist)))


def vecadd_ptx(n: int = 1 << 16, config="QV100", records: str = "lowered", **device) -> list[dict]:
    """vectorAdd from examples/basic.ptx: a and b copied in, c zeroed."""
    dev = Device(config, records=records, **device)
    a = np.arange(n, dtype=np.float32)
    da, db, dc = dev.to_device(a), dev.to_device(2 * a), dev.zeros(n, np.float32)
    Module(EXAMPLES / "basic.ptx").get_function("vectorAdd")[(n + 255) // 256, 256](da, db, dc, np.int32(n))
    rows = _rows(dev.synchronize())
    if not np.array_equal(dc.copy_to_host(), 3 * a):
        raise AssertionError("vectorAdd in PTX mode computed a wrong result")
    return rows


# One warp: a chain of n dependent f32 divisions, then one store. Where the
# record modes part: lowered, each division is its SASS sequence (MUFU.RCP, 4
# FFMA, FCHK) on the SASS units; ptx, one record of ptx_latency_fp_div cycles.
DIV_CHAIN = """
.version 7.0
.target sm_70
.address_size 64
.visible .entry chain(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .f32 %f<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.f32 %f1, 0f3F800000;
  mov.u32 %r2, 0;
LOOP:
  div.rn.f32 %f1, %f1, 0f3F000000;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  cvta.to.global.u64 %rd2, %rd1;
  st.global.f32 [%rd2], %f1;
  ret;
}
"""


def div_chain(n: int = 40, config="QV100", records: str = "lowered") -> tuple[list[dict], float]:
    """DIV_CHAIN on one warp: per-kernel rows and the result (2 ** n)."""
    dev = Device(config, records=records)
    out = dev.zeros(1, np.float32)
    Module(DIV_CHAIN).get_function("chain")[1, 32](out, np.int32(n))
    return _rows(dev.synchronize()), float(out.copy_to_host()[0])


def sincos_ptx(n: int = 40960, config="QV100", records: str = "lowered") -> list[dict]:
    """sincos_f64 (examples/more.cu: libdevice sin and cos, f64) on n values."""
    dev = Device(config, records=records)
    x = np.linspace(-3, 3, n)
    dx, ds, dc = dev.to_device(x), dev.zeros(n, np.float64), dev.zeros(n, np.float64)
    Module(EXAMPLES / "more.ptx").get_function("sincos_f64")[(n + 255) // 256, 256](dx, ds, dc, np.int32(n))
    rows = _rows(dev.synchronize())
    if not np.allclose(ds.copy_to_host(), np.sin(x), rtol=0, atol=1e-15):
        raise AssertionError("sincos_f64 in PTX mode computed a wrong result")
    return rows


def vecadd_trace(folder, n: int = 1 << 16, config="QV100") -> list[dict]:
    """accelsim.tracegen's vecadd (a real sm_70 vecAdd's SASS) replayed."""
    from accelsim.tracegen.examples import write_vecadd

    return trace_rows(write_vecadd(folder, n=n, block=256), config)


# --- the tables of docs/ptx_vs_sass.md ------------------------------------------------

BFS_TRACE = "bfs_rodinia31_sm70"
# Accel-Sim (the reference simulator) on the same trace with its SM7_QV100 config:
# gpu_sim_cycle per kernel (shared data README); a simulator's answer, not hardware.
ACCELSIM_BFS_CYCLES = [11161, 5660, 10656, 5541, 10531, 5620, 10528, 5640, 10952, 5640, 9916, 5599, 7889,
                       5496, 6215, 5286]
VECADD_N = 1 << 16
BEGIN, END = "<!-- vs_sass:begin (python -m accelsim.studies.ptx_vs_sass --write) -->", "<!-- vs_sass:end -->"


# The graphs differ (graph4096 itself is not bundled), so per-level counts
# differ; per-thread path lengths do not. Thread instructions of each kernel
# are fitted as  threads*p0 + frontier*p1 + edges*p2 + updates*p3  (expand) and
# threads*q0 + advanced*q1 (advance), with the events counted in the trace
# (active lanes at these PCs of the traced sm_70 SASS) and by NumPy for ours.
TRACE_EVENT_PCS = {"expand": (0x0C0, 0x190, 0x1F0), "advance": (0x0D0,)}  # after the frontier test,
# the edge-loop head, the store path; advance: after the next-frontier test


def trace_events(folder: Path) -> list[tuple]:
    """Per kernel of the BFS trace, the event counts of TRACE_EVENT_PCS."""
    import re

    events = []
    lists = [ln.strip() for ln in (folder / "kernelslist.g").read_text().splitlines()]
    for i, name in enumerate(ln for ln in lists if ln.endswith(".traceg")):
        lanes: dict[int, int] = {}
        for line in (folder / name).read_text().splitlines():
            m = re.match(r"([0-9a-f]{4}) ([0-9a-f]{8}) ", line)
            if m:
                pc = int(m.group(1), 16)
                lanes[pc] = lanes.get(pc, 0) + bin(int(m.group(2), 16)).count("1")
        pcs = TRACE_EVENT_PCS["expand" if i % 2 == 0 else "advance"]
        events.append(tuple(lanes.get(pc, 0) for pc in pcs))
    return events


def graph_events(graph) -> list[tuple]:
    """The same events for our graph: per level, (frontier, edges scanned,
    edges to not-yet-visited nodes) then (nodes advanced)."""
    starts, counts, adj = graph
    cost = bfs_levels(*graph)
    events = []
    for level in range(int(cost.max()) + 1):
        front = np.flatnonzero(cost == level)
        nbrs = np.concatenate([adj[starts[v]:starts[v] + counts[v]] for v in front])
        updates = int(((cost[nbrs] < 0) | (cost[nbrs] > level)).sum())
        events += [(len(front), len(nbrs), updates), (int((cost == level + 1).sum()),)]
    return events


def path_lengths(rows: list[dict], events: list[tuple], threads: int) -> dict:
    """Least-squares per-event thread-instruction counts (exact when the
    kernels' paths are as modelled; `residual` says how far from exact)."""
    out: dict[str, object] = {}
    for par, kind in ((0, "expand"), (1, "advance")):
        a = np.array([[threads, *events[i]] for i in range(par, len(rows), 2)], float)
        y = np.array([rows[i]["thread_instructions"] for i in range(par, len(rows), 2)], float)
        x = np.linalg.lstsq(a, y, rcond=None)[0]
        out[kind] = [float(v) for v in x]
        out[kind + "_residual"] = float(np.abs(a @ x - y).max())
    return out


def measure(shared_data: Path, config="QV100") -> dict:
    """Every number of the doc's tables: BFS per kernel (trace replay, PTX mode
    lowered and ptx) and vectorAdd (tracegen replay, PTX mode both ways)."""
    import tempfile

    graph = rodinia_graph()
    lowered, cost = bfs_ptx(config, "lowered", graph)
    ptx, cost2 = bfs_ptx(config, "ptx", graph)
    want = bfs_levels(*graph)
    if not (np.array_equal(cost, want) and np.array_equal(cost2, want)):
        raise AssertionError("BFS in PTX mode computed wrong costs")
    trace = trace_rows(shared_data / "traces" / BFS_TRACE / "kernelslist.g", config)
    with tempfile.TemporaryDirectory() as d:
        vec_trace = vecadd_trace(d, VECADD_N, config)
    folder = shared_data / "traces" / BFS_TRACE
    t_events, g_events = trace_events(folder), graph_events(graph)
    n = len(graph[0])
    paths = {"trace": path_lengths(trace, t_events, n), "lowered": path_lengths(lowered, g_events, n),
             "ptx": path_lengths(ptx, g_events, n)}
    return {"bfs": {"trace": trace, "lowered": lowered, "ptx": ptx, "paths": paths, "trace_events": t_events,
                    "threads": n},
            "vecadd": {"trace": vec_trace, "lowered": vecadd_ptx(VECADD_N, config, "lowered"),
                       "ptx": vecadd_ptx(VECADD_N, config, "ptx")},
            "modes": {mode: {"div_chain": div_chain(40, config, mode)[0][0], "sincos_f64": sincos_ptx(
                40960, config, mode)[0]} for mode in ("lowered", "ptx")}}


def _f(v) -> str:
    return f"{v:,}"


def render(m: dict) -> str:
    """The measured tables as Markdown, between the doc's markers."""
    b = m["bfs"]
    out = [BEGIN, "", "| # | kernel | warp insts: SASS trace | PTX lowered | PTX ptx "
           "| cycles: SASS trace | PTX lowered | PTX ptx | Accel-Sim on the trace "
           "| busy cycles: SASS trace | PTX lowered | PTX ptx |", "|" + "---|" * 12]
    tot = [0] * 10
    for i, (t, lo, p) in enumerate(zip(b["trace"], b["lowered"], b["ptx"])):
        kind = "expand" if i % 2 == 0 else "advance"
        cells = [t["warp_instructions"], lo["warp_instructions"], p["warp_instructions"], t["cycles"],
                 lo["cycles"], p["cycles"], ACCELSIM_BFS_CYCLES[i], t["busy_cycles"], lo["busy_cycles"],
                 p["busy_cycles"]]
        out.append(f"| {i + 1} | {kind} | " + " | ".join(_f(c) for c in cells) + " |")
        tot = [a + c for a, c in zip(tot, cells)]
    out.append("| total | | " + " | ".join(f"**{_f(c)}**" for c in tot) + " |")
    out += ["", "Thread instructions per event (least-squares fit over the 8 kernels of each kind; "
            "exact: residual < 0.001):", "",
            "| | expand: per thread | per frontier node | per edge scanned | per neighbour updated "
            "| advance: per thread | per node advanced | on graph4096's events |", "|" + "---|" * 8]
    n, t_events = b["threads"], b["trace_events"]
    for label, key in (("SASS trace", "trace"), ("PTX lowered", "lowered"), ("PTX ptx", "ptx")):
        pl = b["paths"][key]
        if max(pl["expand_residual"], pl["advance_residual"]) > 1e-3:
            raise AssertionError(f"{key}: thread instructions do not fit the path model")
        on_trace = sum(sum(c * e for c, e in zip(pl["expand" if i % 2 == 0 else "advance"], (n, *ev)))
                       for i, ev in enumerate(t_events))
        cells = [f"{c:.0f}" for c in pl["expand"] + pl["advance"]] + [_f(round(on_trace))]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    v = m["vecadd"]
    out += ["", f"vectorAdd, n = {VECADD_N:,} (256 threads per block):", "",
            "| | warp insts | per warp | cycles | busy cycles |", "|---|---|---|---|---|"]
    for label, key in (("SASS trace (tracegen vecadd)", "trace"), ("PTX lowered", "lowered"),
                       ("PTX ptx", "ptx")):
        r = v[key][0]
        warps = VECADD_N // 32
        out.append(f"| {label} | {_f(r['warp_instructions'])} | {r['warp_instructions'] / warps:.1f} "
                   f"| {_f(r['cycles'])} | {_f(r['busy_cycles'])} |")
    md = m["modes"]
    out += ["", "The record modes alone (no SASS trace of these): one warp dividing 40 times in a dependent "
            "chain, and sincos_f64 on 40,960 doubles:", "",
            "| | warp insts | cycles | busy cycles |", "|---|---|---|---|"]
    for kernel in ("div_chain", "sincos_f64"):
        for mode in ("lowered", "ptx"):
            r = md[mode][kernel]
            out.append(f"| {kernel}, PTX {mode} | {_f(r['warp_instructions'])} | {_f(r['cycles'])} "
                       f"| {_f(r['busy_cycles'])} |")
    out += ["", END]
    return "\n".join(out)


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="PTX mode vs SASS-trace replay tables (docs/ptx_vs_sass.md)")
    ap.add_argument("--data", default=os.environ.get("ACCELSIM_SHARED_DATA", "../shared/data"),
                    help="folder holding traces/" + BFS_TRACE + " (default: $ACCELSIM_SHARED_DATA or ../shared/data)")
    ap.add_argument("--write", metavar="DOC", help="replace the tables between the markers of DOC")
    args = ap.parse_args(argv)
    text = render(measure(Path(args.data)))
    return print_or_write(text, args.write, BEGIN, END)


if __name__ == "__main__":
    raise SystemExit(main())
