"""PTX launches written as an Accel-Sim trace (kernel-N.traceg + kernelslist.g),
through the same trace writer as accelsim.tracegen, so the SASS path, trace-info
and the reference simulator read what PTX mode executed."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from accelsim import _core
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


def write_launches(folder, launches: list[dict], version: int, regs_per_thread: int) -> Path:
    """Emulates ``launches`` (updating device memory as a run would) and
    writes them as a trace folder; returns the kernelslist.g path."""
    from accelsim.ptx._tables import tables

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = opcode_names(version)
    listing, n = [], 0
    for d in launches:
        if "copy_bytes" in d:
            apply_copy(d)
            if not d.get("to_host"):  # a host-to-device copy, as the tracer lists it
                listing.append(f"MemcpyHtoD,0x{d['address']:016x},{d['copy_bytes']}")
            # The format has no device-to-host command (the tracer records
            # none, and the reference simulator would read one as a kernel
            # file name): those copies are done here but not listed.
            continue
        n += 1
        src = _core.PtxBlocks(tables(), d, version, regs_per_thread, n)
        path = folder / f"kernel-{n}.traceg"
        write_kernel(path, src.header(), iter(src.next_block, None), names)
        listing.append(path.name)
    klist = folder / "kernelslist.g"
    klist.write_text("".join(name + "\n" for name in listing))
    return klist
