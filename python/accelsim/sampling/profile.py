"""Cheap per-kernel profiles: what kernel sampling groups launches by.

For every kernel of a workload: its header (name, grid, block, shared memory,
registers), the instruction mix by unit class and memory space, the global
bytes and distinct 128-byte lines touched (footprint) of its first few thread
blocks, and the size of its whole trace text. xz and gzip traces carry their
decompressed size in their index or trailer, so the size costs no
decompression; the instructions of the blocks not read are estimated from it
(the text bytes per instruction of the blocks read). Profiles are read on a
few threads (the reader releases the GIL).
"""
from __future__ import annotations

import os
import struct
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from accelsim import _core

_XZ_MAGIC = b"\xfd7zXZ\x00"
_GZ_MAGIC = b"\x1f\x8b"


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """xz multibyte integer at ``at``: (value, position after it)."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise ValueError("bad xz index")


def _xz_stream_size(f, end: int) -> tuple[int, int]:
    """(decompressed bytes, start offset) of the xz stream ending at ``end``."""
    f.seek(end - 12)
    footer = f.read(12)
    if footer[10:12] != b"YZ":
        raise ValueError("no xz stream footer")
    index_size = (struct.unpack("<I", footer[4:8])[0] + 1) * 4
    f.seek(end - 12 - index_size)
    index = f.read(index_size)
    records, at = _varint(index, 1)
    total, blocks = 0, 0
    for _ in range(records):
        unpadded, at = _varint(index, at)
        size, at = _varint(index, at)
        total += size
        blocks += -(-unpadded // 4) * 4
    return total, end - 12 - index_size - blocks - 12


def xz_text_size(path) -> int:
    """Decompressed size of an xz file from its indexes (every stream's)."""
    with open(path, "rb") as f:
        end = f.seek(0, os.SEEK_END)
        total = 0
        while end > 0:
            f.seek(end - 4)
            while end > 0 and f.read(4) == b"\0\0\0\0":  # stream padding
                end -= 4
                f.seek(end - 4)
            size, end = _xz_stream_size(f, end)
            total += size
        return total


def text_size(path) -> int | None:
    """Bytes of trace text in ``path`` without decompressing it: the file
    size, the xz index's total, or gzip's trailer (modulo 4 GiB, corrected
    upwards to at least the compressed size); None if it cannot be told."""
    try:
        with open(path, "rb") as f:
            magic = f.read(6)
            compressed = f.seek(0, os.SEEK_END)
            if magic == _XZ_MAGIC:
                return xz_text_size(path)
            if magic[:2] == _GZ_MAGIC:
                f.seek(compressed - 4)
                size = struct.unpack("<I", f.read(4))[0]
                while size < compressed:
                    size += 1 << 32
                return size
            return compressed
    except (OSError, ValueError, IndexError, struct.error):
        return None


@dataclass
class KernelProfile:
    """One launch: where it is in the workload, its header, what its first
    thread blocks did, and its size."""
    order: int          # among the workload's kernels (0-based)
    command: int        # position in the command list
    id: int
    name: str
    grid: tuple
    block: tuple
    shmem: int
    nregs: int
    stream: int
    scan: dict = field(repr=False)   # _core.profile_kernel's counts
    text_bytes: int | None = None
    # Share of its sampled lines an earlier kernel touched within the reach
    # of the caches (mark_reuse); None when it touches no sampled line.
    reuse: float | None = None

    @property
    def key(self) -> tuple:
        """Launches with different keys are never grouped together."""
        return (self.name, tuple(self.grid), tuple(self.block), self.shmem, self.nregs)

    @property
    def ctas(self) -> int:
        x, y, z = self.grid
        return int(x) * int(y) * int(z)

    @property
    def exact(self) -> bool:
        """The whole trace was read: counts are exact."""
        return bool(self.scan["complete"])

    @property
    def warp_instructions(self) -> float:
        """Exact when the whole trace was read; else the blocks read scaled
        to the trace's size (or, when the size is unknown, to the grid)."""
        read = float(self.scan["warp_instructions"])
        if self.exact or not self.scan["blocks"]:
            return read
        per_byte = read / max(1, self.scan["block_bytes"])
        if self.text_bytes:
            return per_byte * max(0, self.text_bytes - self.scan["header_bytes"])
        return read / self.scan["blocks"] * self.ctas

    @property
    def footprint_bytes(self) -> float:
        """Distinct bytes of global memory it touches, estimated: the lines of
        the blocks read scaled to the grid, at most the bytes it moves."""
        read = max(1, self.scan["warp_instructions"])
        moved = self.scan["global_bytes"] * self.warp_instructions / read
        lines = self.scan["global_lines"] / max(1, self.scan["blocks"]) * self.ctas * 128
        return float(min(moved, lines))

    def mix(self) -> dict:
        """Fractions of the instructions read, by unit class, plus the global
        bytes per instruction and distinct lines per thread block."""
        n = max(1, self.scan["warp_instructions"])
        out = {f"unit.{u}": c / n for u, c in self.scan["by_unit"].items()}
        out["bytes_per_inst"] = self.scan["global_bytes"] / n
        out["lines_per_block"] = self.scan["global_lines"] / max(1, self.scan["blocks"])
        return out


def mark_reuse(profiles: list[KernelProfile], reach_bytes: float) -> None:
    """Sets each profile's ``reuse``: the share of its sampled lines that a
    kernel before it touched while less than ``reach_bytes`` of other data
    went by since (by the profiles' footprints): data the caches may still
    hold when it starts. A first touch (the first decode step reading a KV
    cache) runs cold where later launches of the same kernel run warm, so
    clusters keep the two apart."""
    last_seen: dict[int, int] = {}
    passed = [0.0]  # footprint of the kernels before each one
    for p in profiles:
        passed.append(passed[-1] + p.footprint_bytes)
    for p in profiles:
        lines = p.scan.get("line_sample", [])
        if lines:
            hits = sum(1 for line in lines
                       if line in last_seen and passed[p.order] - passed[last_seen[line] + 1] < reach_bytes)
            p.reuse = hits / len(lines)
        for line in lines:
            last_seen[line] = p.order


def _profile_one(args) -> KernelProfile:
    order, command, path, registry, blocks = args
    scan = _core.profile_kernel(path, registry, blocks)
    info = scan.pop("info")
    return KernelProfile(order, command, int(info["id"]), info["name"], tuple(info["grid"]),
                         tuple(info["block"]), int(info["shmem"]), int(info["nregs"]), int(info["stream"]),
                         scan, text_size(path))


def profile_kernels(commands: list, registry, blocks: int, threads: int | None = None) -> list[KernelProfile]:
    """Profiles of the kernels of ``commands`` (``_core.read_command_list``), in order."""
    from accelsim.sweep.engines import usable_cores

    jobs: list[tuple] = []
    for position, (kind, _line, _text, path, *_rest) in enumerate(commands):
        if kind == "kernel":
            jobs.append((len(jobs), position, path, registry, blocks))
    with ThreadPoolExecutor(max_workers=threads or max(1, min(4, usable_cores()))) as pool:
        return list(pool.map(_profile_one, jobs))


def workload_commands(path) -> list:
    """The command list of a workload path (kernelslist.g, a folder, a trace)."""
    from accelsim.trace.paths import resolve_trace_path

    return _core.read_command_list(str(resolve_trace_path(Path(path))))
