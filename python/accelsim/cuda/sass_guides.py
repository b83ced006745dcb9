"""records="sass" under accelsim cuda: before the program starts, every PTX
text embedded in it is compiled with ptxas and disassembled with nvdisasm
(accelsim.ptx.sass_guided, as accelsim.Device(records="sass") does), and the
per-PTX-line SASS is written as one guide file per text for the runtime
library (format: cudart/sass_guides.h)."""
from __future__ import annotations

from pathlib import Path

from accelsim import _core

__all__ = ["fnv1a64", "write_sass_guides"]


def fnv1a64(data: bytes) -> int:
    """The hash naming a guide file (the runtime computes the same)."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_sass_guides(program: Path, folder: Path, arch: int, sm_version: int) -> int:
    """Writes a guide per PTX text of ``program`` into ``folder``; how many."""
    from accelsim.ptx.sass_guided import require_tools, sass_map

    require_tools()
    texts = {text for _, text in _core.fatbin_ptx(str(program), sm_version)}
    for text in texts:
        m = sass_map(text, arch, program.name)
        lines = ["accelsim-sass-guide 1", f"source SASS (sm_{m.arch}) of {program.name}"]
        for kernel, by_line in m.lines.items():
            res = m.resources.get(kernel)
            lines.append(f"kernel {kernel} {res.registers if res else 0} {res.shared_bytes if res else -1}")
            lines += [f"line {ln} {' '.join(ops)}".rstrip() for ln, ops in sorted(by_line.items())]
        (folder / f"{fnv1a64(text.encode()):016x}.txt").write_text("\n".join(lines) + "\n")
    return len(texts)
