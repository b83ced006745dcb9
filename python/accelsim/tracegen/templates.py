"""Warp templates: fast writing of very long generated traces.

The ``Inst`` / ``Kernel`` path builds one Python object per warp instruction,
which is right for tests and small examples and far too slow for workloads of
10^8 instructions and more. Here a warp's instruction lines are compiled once
into a format string whose only holes are the warp index and the memory
instructions' base addresses; a generated kernel is then written at the speed
of string formatting and of the compressor, block by block, in bounded memory.

The lines are those of the NVBit tracer, format version 5 (no line info):
``PC mask dest_num [Rd] opcode src_num [Rs...] mem_width [mode base ...] imm``.
A memory operand is either ``stride`` (mode 1: active lanes at base + k *
stride, lanes contiguous from lane 0) or fixed ``deltas`` between successive
active lanes (mode 2), exactly what the tracer picks for such lane patterns.
"""
from __future__ import annotations

import gzip
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Sequence, cast

from accelsim.tracegen.model import FULL_MASK, Kernel
from accelsim.tracegen.writer import access_bytes, header_lines

TRACER_VERSION = 5


@dataclass(frozen=True)
class Op:
    """One warp instruction of a template. A memory instruction gives
    ``stride`` or ``deltas`` (its base address is filled in per warp)."""
    opcode: str
    dst: int | None = None
    srcs: tuple[int, ...] = ()
    mask: int = FULL_MASK
    stride: int | None = None
    deltas: tuple[int, ...] | None = None
    width: int | None = None

    @property
    def is_memory(self) -> bool:
        return self.stride is not None or self.deltas is not None


def op_line(op: Op, pc: int) -> str:
    """The trace line of ``op`` at ``pc``; a memory operand's base is ``%x``."""
    parts = [f"{pc:04x}", f"{op.mask & FULL_MASK:08x}"]
    parts += ["1", f"R{op.dst}"] if op.dst is not None else ["0"]
    parts += [op.opcode, str(len(op.srcs))] + [f"R{r}" for r in op.srcs]
    if op.is_memory:
        width = op.width if op.width is not None else access_bytes(op.opcode)
        if op.deltas is not None:
            active = bin(op.mask & FULL_MASK).count("1")
            if len(op.deltas) != active - 1:
                raise ValueError(f"{op.opcode}: {len(op.deltas)} deltas for {active} active lanes")
            parts += [str(width), "2", "0x%x"] + [str(d) for d in op.deltas]
        else:
            parts += [str(width), "1", "0x%x", str(op.stride)]
    else:
        parts.append("0")
    parts.append("0")  # immediate (version 5)
    return " ".join(parts)


class Program:
    """A warp's instruction list being assembled: straight-line code gets
    consecutive PCs; ``loop`` repeats a body at the same PCs (as a traced loop
    shows them)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.holes = 0
        self._pc = 0

    def code(self, ops: Sequence[Op]) -> "Program":
        for op in ops:
            self._emit(op, self._pc)
            self._pc += 16
        return self

    def loop(self, body: Sequence[Op], iterations: int) -> "Program":
        start = self._pc
        for _ in range(iterations):
            for i, op in enumerate(body):
                self._emit(op, start + 16 * i)
        self._pc = start + 16 * len(body)
        return self

    def _emit(self, op: Op, pc: int) -> None:
        self.lines.append(op_line(op, pc))
        self.holes += op.is_memory

    def template(self) -> "WarpTemplate":
        return WarpTemplate(self.lines, self.holes)


class WarpTemplate:
    """A compiled warp: ``text(warp, addrs)`` gives its ``warp =`` /
    ``insts =`` lines and instruction lines, ``addrs`` holding one base
    address per memory instruction in program order."""

    def __init__(self, lines: list[str], holes: int):
        self.instructions = len(lines)
        self.holes = holes
        body = "".join(line + "\n" for line in lines)
        self._fmt = "\nwarp = %d\ninsts = " + str(len(lines)) + "\n" + body

    def text(self, warp: int, addrs: Sequence[int]) -> str:
        if len(addrs) != self.holes:
            raise ValueError(f"template has {self.holes} memory instructions, got {len(addrs)} addresses")
        return self._fmt % (warp, *addrs)


def block_text(coord: tuple[int, int, int], warps: Iterable[str]) -> str:
    """A thread block from its warps' texts (``WarpTemplate.text``)."""
    x, y, z = coord
    return f"\n#BEGIN_TB\n\nthread block = {x},{y},{z}\n" + "".join(warps) + "\n#END_TB\n"


def open_binary(path: Path, compression: str | None) -> IO[bytes]:
    """A binary stream writing ``path`` (xz at preset 0: the fast end of xz,
    which still shrinks generated traces by 30x and more)."""
    if compression is None:
        return open(path, "wb")
    if compression == "xz":
        return cast(IO[bytes], lzma.open(path, "wb", preset=0))
    if compression == "gz":
        return cast(IO[bytes], gzip.open(path, "wb", compresslevel=1))
    raise ValueError(f"compression must be None, 'gz' or 'xz', not {compression!r}")


def trace_path(folder: Path, kernel_id: int, compression: str | None) -> Path:
    name = f"kernel-{kernel_id}.traceg"
    return folder / (name + "." + compression if compression else name)


def write_blocks(path: Path, header: Kernel, blocks: Iterable[str], compression: str | None) -> Path:
    """Writes the header of ``header`` (its ``blocks`` are ignored) and then
    each block text as it comes, in bounded memory."""
    head = "\n".join(header_lines(header, TRACER_VERSION, False)) + "\n"
    with open_binary(path, compression) as out:
        out.write(head.encode("ascii"))
        for text in blocks:
            out.write(text.encode("ascii"))
    return path
