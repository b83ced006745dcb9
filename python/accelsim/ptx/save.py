"""PTX launches written as an Accel-Sim trace (kernel-N.traceg + kernelslist.g),
through the same trace writer as accelsim.tracegen, so the SASS path, trace-info
and the reference simulator read what PTX mode executed."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from accelsim import _core
from accelsim.errors import Interrupted, RunStopped
from accelsim.trace._records import FLAG_HAS_ADDRS, RAW_DTYPE
from accelsim.tracegen.model import Inst, Kernel, ThreadBlock
from accelsim.tracegen.writer import block_lines, header_lines

__all__ = ["write_launches", "write_kernel", "opcode_names"]

_WIDTH_SUFFIX = {1: ".U8", 2: ".U16", 4: "", 8: ".64", 16: ".128"}


def opcode_names(version: int) -> list[str]:
    from accelsim.ptx._tables import tables  # noqa: F401 (same data folder)
    from accelsim._paths import data_dir

    reg = _core.IsaRegistry(str(data_dir() / "isa"))
    rows = reg.table(version)[2]
    return [r[0] if isinstance(r, (tuple, list)) else r["name"] for r in rows]


_opcode_names = opcode_names  # the name the tests know


def _spelling(name: str, rec) -> str:
    """A SASS spelling the trace decoder maps back to the same record."""
    if rec["mem_space"] == 0 or not rec["flags"] & FLAG_HAS_ADDRS:
        return name
    s = name + ".E" + _WIDTH_SUFFIX.get(int(rec["access_bytes"]), "")
    if rec["flags"] & 8 and not rec["flags"] & 4:  # bypasses L1 (ld.cg): the decoder's CG rule
        s += ".CG"
    return s


def _block(coord, raw: bytes, warp_begin, addrs: bytes, names) -> ThreadBlock:
    recs = np.frombuffer(raw, dtype=RAW_DTYPE)
    pool = np.frombuffer(addrs, dtype="<u8")
    warps = []
    for w in range(len(warp_begin) - 1):
        insts = []
        for r in recs[warp_begin[w]:warp_begin[w + 1]]:
            dst = int(r["dst"]) - 1 if r["dst"] else None
            srcs = [int(x) - 1 for x in r["src"][:int(r["nsrc"])]]
            has = bool(r["flags"] & FLAG_HAS_ADDRS)
            a = pool[int(r["addr_offset"]):int(r["addr_offset"]) + 32].tolist() if has else None
            insts.append(Inst(opcode=_spelling(names[int(r["opcode"])], r), mask=int(r["mask"]), dst=dst,
                              srcs=srcs, addrs=a, pc=int(r["pc"]), line=int(r["line"]),
                              mem_width=int(r["access_bytes"]) if has else None))
        warps.append(insts)
    return ThreadBlock(coord=tuple(coord), warps=warps)


def apply_copy(d: dict) -> None:
    """A queued copy's data movement, in command order (the trace is written
    by emulating the launches one after another)."""
    if d.get("to_host") and "host" in d:
        raw = d["memory"].read(d["address"], d["copy_bytes"])
        d["host"].reshape(-1).view(np.uint8)[:] = np.frombuffer(raw, dtype=np.uint8)
    elif "data" in d:
        d["memory"].write(d["address"], np.frombuffer(d["data"], dtype=np.uint8))


def write_kernel(path: Path, h: dict, blocks, names: list[str]) -> None:
    """One kernel trace (tracer format 5 with line info) from its header
    (name, id, grid, block, shmem, nregs, binary_version, stream, shmem_base,
    local_base) and its blocks as (coord, raw records, warp begins, addresses)."""
    k = Kernel(name=h["name"], grid=tuple(h["grid"]), block=tuple(h["block"]), id=h["id"], shmem=h["shmem"],
               nregs=h["nregs"], binary_version=h["binary_version"], stream=h["stream"],
               shmem_base=h["shmem_base"], local_base=h["local_base"])
    with open(path, "w", encoding="ascii", newline="\n") as out:
        for line in header_lines(k, 5, True):
            out.write(line + "\n")
        for coord, raw, warp_begin, addrs in blocks:
            for line in block_lines(_block(coord, raw, warp_begin, addrs, names), version=5, lineinfo=True,
                                    mode=None):
                out.write(line + "\n")


def write_launches(folder, launches: list[dict], version: int, regs_per_thread: int, *, on_progress=None,
                   progress: bool | None = None) -> Path:
    """Emulates ``launches`` (updating device memory as a run would) and
    writes them as a trace folder; returns the kernelslist.g path.

    ``on_progress`` / ``progress`` as for a timed run (warp instructions are
    the records written; no cycles pass). Ctrl-C raises
    ``accelsim.Interrupted`` and ``on_progress`` returning True raises
    ``accelsim.RunStopped``; either way ``result`` is the kernelslist.g of the
    kernels written whole so far (the one cut short is removed), which
    replays as it is."""
    from accelsim.progress import ProgressReporter, want_bar

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    reporter = ProgressReporter(on_progress, bar=want_bar(progress), label="writing trace") \
        if on_progress is not None or want_bar(progress) else None
    writer = _TraceWriter(folder, version, regs_per_thread, sum(1 for d in launches if "copy_bytes" not in d),
                          reporter)
    try:
        for d in launches:
            writer.add(d)
    except KeyboardInterrupt:
        raise Interrupted(writer.close(partial=True)) from None
    except _Stop:
        klist = writer.close(partial=True)
        raise RunStopped(f"save_trace: on_progress stopped it after {writer.done} of {writer.total} kernels; "
                         f"{klist} lists those", result=klist) from None
    finally:
        if reporter is not None:
            reporter.close()
    return writer.close()


class _Stop(Exception):
    """on_progress asked save_trace to stop."""


class _TraceWriter:
    """Kernel files and the command list of one save_trace, with progress
    reported between blocks (at most every 50 ms)."""

    def __init__(self, folder: Path, version: int, regs_per_thread: int, total: int, reporter):
        self.folder, self.version, self.regs = folder, version, regs_per_thread
        self.names: dict[int, list[str]] = {version: opcode_names(version)}
        self.listing: list[str] = []
        self.done, self.total, self.records = 0, total, 0
        self.reporter, self.next_report = reporter, 0.0
        self.current: Path | None = None

    def add(self, d: dict) -> None:
        if "copy_bytes" in d:
            apply_copy(d)
            if not d.get("to_host"):  # a host-to-device copy, as the tracer lists it
                self.listing.append(f"MemcpyHtoD,0x{d['address']:016x},{d['copy_bytes']}")
            # The format has no device-to-host command (the tracer records
            # none, and the reference simulator would read one as a kernel
            # file name): those copies are done here but not listed.
            return
        from accelsim.ptx._tables import tables

        n = self.done + 1
        src = _core.PtxBlocks(tables(), d, self.version, self.regs, n)
        self.current = self.folder / f"kernel-{n}.traceg"
        header = src.header()  # a SASS-guided launch carries its SASS's generation
        v = int(header["binary_version"])
        if v not in self.names:
            self.names[v] = opcode_names(v)
        names = self.names[v]
        write_kernel(self.current, header, self._blocks(src), names)
        self.listing.append(self.current.name)
        self.current = None
        self.done = n

    def _blocks(self, src):
        """The kernel's blocks as emulated, reporting progress between them."""
        while (b := src.next_block(self.report if self.reporter else None)) is not None:
            yield b  # (coord, records, warp begins, addresses)
            self.records += len(b[1]) // RAW_DTYPE.itemsize
            self.report()

    def report(self) -> None:
        if self.reporter is None or time.perf_counter() < self.next_report:
            return
        self.next_report = time.perf_counter() + 0.05
        if self.reporter({"kernels_done": self.done, "kernels_total": self.total, "cycles": 0,
                          "warp_instructions": self.records}):
            raise _Stop

    def close(self, partial: bool = False) -> Path:
        """Writes kernelslist.g (of the whole kernels only, if ``partial``)."""
        if partial and self.current is not None:
            self.current.unlink(missing_ok=True)
        klist = self.folder / "kernelslist.g"
        klist.write_text("".join(name + "\n" for name in self.listing))
        return klist
