"""``accelsim cuda --save-trace DIR``: the runtime library emulates the
program's launches and copies in command order and dumps each kernel's
records raw (cudart/trace_dump.cpp); this turns the dump into an Accel-Sim
trace folder (kernel-N.traceg + kernelslist.g, tracer format 5 with line
info) with the writer accelsim.Device.save_trace uses, for accelsim run or
the reference simulator to replay."""
from __future__ import annotations

import struct
from pathlib import Path

from accelsim.errors import AccelsimError
from accelsim.ptx.save import opcode_names, write_kernel

__all__ = ["write_trace_from_dump"]

_MAGIC = b"accelsim-raw-blocks 1\n"
_HEADER = ("name", "id", "gx", "gy", "gz", "bx", "by", "bz", "shmem", "nregs", "binary_version", "stream",
           "shmem_base", "local_base")


def _blocks(data: bytes, at: int):
    while at < len(data):
        x, y, z, warps = struct.unpack_from("<4I", data, at)
        at += 16
        warp_begin = list(struct.unpack_from(f"<{warps + 1}I", data, at))
        at += 4 * (warps + 1)
        n, = struct.unpack_from("<Q", data, at)
        raw = data[at + 8:at + 8 + 40 * n]
        at += 8 + 40 * n
        m, = struct.unpack_from("<Q", data, at)
        addrs = data[at + 8:at + 8 + 8 * m]
        at += 8 + 8 * m
        yield (x, y, z), raw, warp_begin, addrs


def _kernel(raw_path: Path, out: Path, names_of) -> None:
    data = raw_path.read_bytes()
    if not data.startswith(_MAGIC):
        raise AccelsimError(f"{raw_path}: not a raw block dump of accelsim's runtime library")
    end = data.index(b"\n", len(_MAGIC))
    fields = data[len(_MAGIC):end].decode().split(" ")
    name, nums = " ".join(fields[:-13]), [int(v) for v in fields[-13:]]
    h = dict(zip(_HEADER[1:], nums))
    header = {"name": name, "id": h["id"], "grid": (h["gx"], h["gy"], h["gz"]), "block": (h["bx"], h["by"], h["bz"]),
              "shmem": h["shmem"], "nregs": h["nregs"], "binary_version": h["binary_version"],
              "stream": h["stream"], "shmem_base": h["shmem_base"], "local_base": h["local_base"]}
    write_kernel(out, header, _blocks(data, end + 1), names_of(h["binary_version"]))


def write_trace_from_dump(dump: Path, folder: Path) -> Path:
    """Writes the trace folder; returns its kernelslist.g."""
    folder.mkdir(parents=True, exist_ok=True)
    cache: dict[int, list[str]] = {}

    def names_of(version: int) -> list[str]:
        if version not in cache:
            cache[version] = opcode_names(version)
        return cache[version]

    listing = []
    commands = dump / "commands.txt"
    for line in (commands.read_text().splitlines() if commands.is_file() else []):
        kind, a, b = line.split(" ")
        if kind == "MemcpyHtoD":
            listing.append(f"MemcpyHtoD,0x{int(a):016x},{int(b)}")
        else:
            name = f"kernel-{int(a)}.traceg"
            _kernel(dump / b, folder / name, names_of)
            listing.append(name)
    klist = folder / "kernelslist.g"
    klist.write_text("".join(x + "\n" for x in listing))
    return klist

