"""The ``cuda_fatbin`` fuzz target: the CUDA runtime's fat-binary reader
(``ptx/fatbin.h``), reached as ``accelsim cuda`` reaches it for a program
file: the ELF section table, the ``.nv_fatbin`` section, its containers and
entries, and the PTX entries decompressed (LZ4 / Zstandard through the
system's libraries, as nvcc 12 and 13 compress them).

Seeds are ELF files built here around the PTX of the example modules (what
nvcc made), in the layouts nvcc writes: one container or several with
padding between them, PTX and ELF (cubin) entries for several
architectures, plain and compressed. Edits are the generic byte and token
mutations plus field-aware ones: a header field of the ELF file, a
container or an entry set to a boundary value.
"""
from __future__ import annotations

import ctypes
import functools
import random
import struct
from pathlib import Path

from accelsim.devtools.fuzz.mutate import mutate

_CONTAINER_MAGIC = 0xBA55ED50
_LZ4, _ZSTD = 0x2000, 0x8000   # entry flags of compressed payloads


@functools.lru_cache(maxsize=1)
def _compressors():
    """(zstd, lz4) compress functions from the system libraries, None where missing."""
    def load(name, symbol, restype, argtypes):
        try:
            f = getattr(ctypes.CDLL(name), symbol)
        except (OSError, AttributeError):
            return None
        f.restype, f.argtypes = restype, argtypes
        return f

    zstd = load("libzstd.so.1", "ZSTD_compress", ctypes.c_size_t,
                [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int])
    lz4 = load("liblz4.so.1", "LZ4_compress_default", ctypes.c_int,
               [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int])
    return zstd, lz4


def _compress(data: bytes, flag: int) -> bytes | None:
    zstd, lz4 = _compressors()
    out = ctypes.create_string_buffer(len(data) + 1024)
    if flag == _ZSTD and zstd:
        n = zstd(out, len(out), data, len(data), 3)
        return out.raw[:n] if n < len(out) else None
    if flag == _LZ4 and lz4:
        n = lz4(data, out, len(data), len(out))
        return out.raw[:n] if n > 0 else None
    return None


def _entry(kind: int, arch: int, payload: bytes, flag: int = 0) -> bytes:
    """One entry as nvcc lays it out: a 64-byte header, then the payload padded to 8."""
    plain = len(payload)
    stored = _compress(payload, flag) if flag else None
    if stored is None:
        stored, flag = payload, 0
    padded = stored + b"\0" * (-len(stored) % 8)
    head = struct.pack("<HHIQIIHHIIIQII Q", kind, 0x0101, 64, len(padded), len(stored) if flag else 0, 0,
                       0 if kind == 2 else 5, 8, arch, 0, 0, 0x11 | flag, 0, 0, plain if flag else 0)
    return head + padded


def _container(entries: list[bytes]) -> bytes:
    body = b"".join(entries)
    return struct.pack("<IHHQ", _CONTAINER_MAGIC, 1, 16, len(body)) + body


def _elf(section: bytes) -> bytes:
    """A minimal 64-bit ELF file holding ``section`` as ``.nv_fatbin`` (and a .text)."""
    names = b"\0.shstrtab\0.nv_fatbin\0.text\0"
    text = b"\xc3" * 16
    data_off = 64
    text_off = data_off + len(section) + (-len(section) % 8)
    names_off = text_off + len(text)
    sh_off = names_off + len(names) + (-(names_off + len(names)) % 8)
    header = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0, b"\0" * 7, 2, 62, 1, 0, 0,
                         sh_off, 0, 64, 0, 0, 64, 4, 1)

    def sh(name, kind, off, size):
        return struct.pack("<IIQQQQIIQQ", name, kind, 0, 0, off, size, 0, 0, 8, 0)

    sections = (sh(0, 0, 0, 0) + sh(1, 3, names_off, len(names)) + sh(11, 1, data_off, len(section))
                + sh(22, 1, text_off, len(text)))
    body = header + section
    body += b"\0" * (text_off - len(body)) + text + names
    return body + b"\0" * (sh_off - len(body)) + sections


@functools.lru_cache(maxsize=1)
def fatbin_seeds() -> tuple[bytes, ...]:
    """ELF files around the example modules' PTX, in nvcc's layouts."""
    from accelsim.ptx import EXAMPLES

    # The reader does not parse the PTX, so the first 6 KB of each text (cut at a
    # line) serve as well as the whole and keep inputs cheap.
    texts = [_head(p.read_bytes(), 6144) + b"\0" for p in sorted(Path(EXAMPLES).glob("*.ptx"))][:4]
    cubin = b"\x7fELF\x02\x01\x01\x33" + bytes(range(256)) * 2
    out = []
    for i, ptx in enumerate(texts):
        flag = (0, _LZ4, _ZSTD)[i % 3]
        one = _container([_entry(2, 75, cubin), _entry(1, 75, ptx, flag), _entry(1, 86, ptx, flag)])
        out.append(_elf(one))
        two = one + b"\0" * (-len(one) % 8) + b"\0" * 8 + _container([_entry(1, 70, ptx, _ZSTD if flag else 0)])
        out.append(_elf(two))
    return tuple(out)


def _head(text: bytes, most: int) -> bytes:
    return text if len(text) <= most else text[:text.rfind(b"\n", 0, most) + 1]


# Offsets of fields worth a boundary value: ELF (section table offset, entry
# size, count, names index), container (header size, body size) and entry
# (header size, stored, compressed, arch, flags, plain size) headers.
_ELF_FIELDS = [(0x28, "Q"), (0x3A, "H"), (0x3C, "H"), (0x3E, "H")]
_CONTAINER_FIELDS = [(6, "H"), (8, "Q")]
_ENTRY_FIELDS = [(0, "H"), (4, "I"), (8, "Q"), (16, "I"), (28, "I"), (40, "Q"), (56, "Q")]
_BOUNDARY = [0, 1, 7, 8, 15, 16, 63, 64, 65, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 32,
             (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 0x2011, 0x8011, 0xA011]


def _set_field(rng: random.Random, data: bytearray) -> None:
    """One header field of the ELF file, a container or an entry set to a boundary value."""
    magic, starts = struct.pack("<I", _CONTAINER_MAGIC), []
    at = data.find(magic)
    while at >= 0:
        starts.append(at)
        at = data.find(magic, at + 4)
    where = rng.randrange(3)
    if where == 0 or not starts:
        off, fmt = rng.choice(_ELF_FIELDS)
    elif where == 1:
        off, fmt = rng.choice(_CONTAINER_FIELDS)
        off += rng.choice(starts)
    else:
        off, fmt = rng.choice(_ENTRY_FIELDS)
        off += rng.choice(starts) + 16   # the first entry follows the 16-byte container header
    value = rng.choice(_BOUNDARY) if rng.random() < 0.8 else rng.getrandbits(64)
    size = struct.calcsize(fmt)
    if off + size <= len(data):
        data[off:off + size] = struct.pack("<" + fmt, value & ((1 << (8 * size)) - 1))


def make_fatbin(rng: random.Random) -> bytes:
    data = bytearray(rng.choice(fatbin_seeds()))
    for _ in range(rng.randint(0, 3)):
        _set_field(rng, data)
    return mutate(rng, bytes(data), max_edits=2) if rng.random() < 0.4 else bytes(data)


def run_fatbin(data: bytes, scratch: Path) -> None:
    from accelsim import _core

    path = scratch / "program"
    path.write_bytes(data)
    for arch, text in _core.fatbin_ptx(str(path), 75):
        assert isinstance(arch, int) and isinstance(text, str)
