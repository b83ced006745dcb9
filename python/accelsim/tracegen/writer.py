"""Writes kernels as Accel-Sim traces: kernel-N.traceg in the v3/v4/v5 layout
or the old tb/warp-prefixed layout, and kernelslist.g.

Address compression follows the NVBit tracer: base+stride (mode 1) when the
active lanes are contiguous with a constant stride (and there are at least
two, or none), else base+deltas (mode 2); ``address_mode`` forces 0, 1 or 2.
"""
from __future__ import annotations

import gzip
import lzma
from pathlib import Path
from typing import Iterable, Iterator

from accelsim.tracegen.model import Inst, Kernel, Memcpy, ThreadBlock


def access_bytes(opcode: str) -> int:
    """Per-thread access size from the modifiers (the tracer's rule)."""
    for mod in opcode.split(".")[1:]:
        if mod in ("8", "16", "32", "64", "128"):
            return int(mod) // 8
        if mod in ("U8", "S8"):
            return 1
        if mod in ("U16", "S16"):
            return 2
    return 4


def choose_mode(mask: int, addrs: list[int]) -> int:
    """The tracer's choice between base+stride (1) and base+deltas (2)."""
    if not addrs:
        return 1
    lanes = [i for i in range(32) if mask >> i & 1]
    contiguous = lanes == list(range(lanes[0], lanes[0] + len(lanes)))
    if len(addrs) >= 2 and contiguous:
        stride = addrs[1] - addrs[0]
        if all(b - a == stride for a, b in zip(addrs, addrs[1:])):
            return 1
    return 2


def _address_fields(inst: Inst, mode: int | None) -> list[str]:
    addrs = inst.lane_addresses()
    mode = choose_mode(inst.mask, addrs) if mode is None else mode
    if mode == 0:
        return ["0"] + [f"0x{a:016x}" for a in addrs]
    base = addrs[0] if addrs else 0
    if mode == 1:
        stride = addrs[1] - addrs[0] if len(addrs) >= 2 else 0
        if mode == 1 and any(addrs[k] != base + k * stride for k in range(len(addrs))):
            raise ValueError(f"{inst.opcode}: addresses are not base + k*stride; use mode 0 or 2")
        return ["1", f"0x{base:x}", str(stride)]
    return ["2", f"0x{base:x}"] + [str(b - a) for a, b in zip(addrs, addrs[1:])]


def inst_line(inst: Inst, pc: int, *, version: int, lineinfo: bool, mode: int | None,
              prefix: str = "") -> str:
    """One instruction line (without newline)."""
    parts = [prefix] if prefix else []
    if lineinfo:
        parts.append(str(inst.line))
    parts += [f"{pc:04x}", f"{inst.mask & 0xFFFFFFFF:08x}"]
    parts += ["1", f"R{inst.dst}"] if inst.dst is not None else ["0"]
    parts += [inst.opcode, str(len(inst.srcs))] + [f"R{r}" for r in inst.srcs]
    if inst.addrs is not None:
        width = inst.mem_width if inst.mem_width is not None else access_bytes(inst.opcode)
        parts += [str(width)] + _address_fields(inst, mode)
    else:
        parts.append("0")
    if version >= 5:
        parts.append(str(inst.imm))
    return " ".join(parts)


def header_lines(k: Kernel, version, lineinfo: bool) -> list[str]:
    return [f"-kernel name = {k.name}", f"-kernel id = {k.id}",
            "-grid dim = ({},{},{})".format(*k.grid), "-block dim = ({},{},{})".format(*k.block),
            f"-shmem = {k.shmem}", f"-nregs = {k.nregs}", f"-binary version = {k.binary_version}",
            f"-cuda stream id = {k.stream}", f"-shmem base_addr = 0x{k.shmem_base:016x}",
            f"-local mem base_addr = 0x{k.local_base:016x}", f"-nvbit version = {k.nvbit_version}",
            f"-accelsim tracer version = {version}", f"-enable lineinfo = {int(lineinfo)}", "",
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
            "mem_width [adrrescompress?] [mem_addresses] immediate", ""]


def _warp_lines(warp: list[Inst], **fmt) -> Iterator[str]:
    for pos, inst in enumerate(warp):
        yield inst_line(inst, inst.pc if inst.pc is not None else 16 * pos, **fmt)


def block_lines(tb: ThreadBlock, *, version: int, lineinfo: bool, mode: int | None,
                interleave: bool = False) -> Iterator[str]:
    """Lines of one thread block (old layout when version < 3)."""
    old = version < 3
    yield ""
    yield "#BEGIN_TB"
    yield ""
    yield "thread block = {},{},{}".format(*tb.coord)
    x, y, z = tb.coord
    fmt = dict(version=version, lineinfo=lineinfo, mode=mode)
    if old and interleave:  # raw NVBit order: warps' lines mixed, no warp/insts lines
        streams = [list(_warp_lines(w, prefix=f"{x} {y} {z} {i}", **fmt)) for i, w in enumerate(tb.warps)]
        for depth in range(max((len(s) for s in streams), default=0)):
            for s in streams:
                if depth < len(s):
                    yield s[depth]
    else:
        for i, warp in enumerate(tb.warps):
            yield ""
            yield f"warp = {i}"
            yield f"insts = {len(warp)}"
            yield from _warp_lines(warp, prefix=f"{x} {y} {z} {i}" if old else "", **fmt)
    yield ""
    yield "#END_TB"


def kernel_text(k: Kernel, *, version=5, lineinfo: bool = False, address_mode: int | None = None,
                interleave: bool = False) -> Iterator[str]:
    """The kernel trace as lines. ``version`` may be a string like "1.2"."""
    v = int(str(version).split(".")[0])
    yield from header_lines(k, version, lineinfo)
    for tb in k.blocks:
        yield from block_lines(tb, version=v, lineinfo=lineinfo, mode=address_mode,
                               interleave=interleave)


def _open_text(path: Path, compression: str | None):
    if compression is None:
        return open(path, "w", encoding="ascii", newline="\n")
    if compression == "gz":
        return gzip.open(path, "wt", encoding="ascii", newline="\n")
    if compression == "xz":
        return lzma.open(path, "wt", encoding="ascii", newline="\n")
    raise ValueError(f"compression must be None, 'gz' or 'xz', not {compression!r}")


def write_kernel(k: Kernel, path, *, version=5, lineinfo: bool = False,
                 address_mode: int | None = None, compression: str | None = None,
                 interleave: bool = False) -> Path:
    """Writes one kernel trace file; returns its path (with .gz/.xz added)."""
    path = Path(path)
    if compression and not path.name.endswith("." + compression):
        path = path.with_name(path.name + "." + compression)
    with _open_text(path, compression) as out:
        for line in kernel_text(k, version=version, lineinfo=lineinfo,
                                address_mode=address_mode, interleave=interleave):
            out.write(line + "\n")
    return path


def write_workload(folder, commands: Iterable[Kernel | Memcpy], **options) -> Path:
    """Writes kernel-N.traceg for each Kernel (N counting from 1) and the
    kernelslist.g that lists them with the memcpys; returns kernelslist.g.
    ``options`` go to ``write_kernel``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    lines, n = [], 0
    for c in commands:
        if isinstance(c, Memcpy):
            lines.append(f"MemcpyHtoD,0x{c.address:016x},{c.bytes}")
        else:
            n += 1
            path = write_kernel(c, folder / f"kernel-{n}.traceg", **options)
            lines.append(path.name)
    listing = folder / "kernelslist.g"
    listing.write_text("".join(line + "\n" for line in lines))
    return listing
