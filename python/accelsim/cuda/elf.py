"""What the launcher needs to know about a program file before running it:
whether it is a 64-bit ELF, which shared libraries it needs (DT_NEEDED), and
whether it embeds CUDA kernels (a .nv_fatbin section). Read with the struct
module: the section table, the .dynamic section and its string table."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ElfInfo", "read_elf"]

_DT_NEEDED, _DT_SONAME = 1, 14
_SHT_DYNAMIC = 6


@dataclass
class ElfInfo:
    needed: list[str] = field(default_factory=list)
    soname: str | None = None
    sections: list[str] = field(default_factory=list)

    @property
    def cudart(self) -> str | None:
        """The CUDA runtime it needs (``libcudart.so.13``), or None."""
        return next((n for n in self.needed if n.startswith("libcudart.so")), None)

    @property
    def has_kernels(self) -> bool:
        return ".nv_fatbin" in self.sections or "__nv_relfatbin" in self.sections


def read_elf(path) -> ElfInfo | None:
    """The program's ELF facts, or None when it is not a 64-bit little-endian
    ELF file (a script, say: the launcher then runs it without checks)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    try:
        return _parse(data)
    except (struct.error, IndexError, UnicodeDecodeError):
        return None


def _parse(data: bytes) -> ElfInfo:
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]

    def strings(index: int, offset: int) -> str:
        base = heads[index][4] + offset
        end = data.index(b"\0", base)
        return data[base:end].decode()

    info = ElfInfo(sections=[strings(shstrndx, h[0]) for h in heads])
    for h in heads:
        if h[1] != _SHT_DYNAMIC:
            continue
        link, off, size = h[6], h[4], h[5]
        for at in range(off, off + size, 16):
            tag, value = struct.unpack_from("<qQ", data, at)
            if tag == 0:
                break
            if tag == _DT_NEEDED:
                info.needed.append(strings(link, value))
            elif tag == _DT_SONAME:
                info.soname = strings(link, value)
    return info
