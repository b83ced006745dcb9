"""Register counts from ptxas (SASS-guided occupancy, docs/ptx.md): PTX
registers are virtual, so without ptxas PTX mode assumes ``regs_per_thread``."""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["find_ptxas", "register_counts"]

_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_USED = re.compile(r"Used (\d+) registers")


def find_ptxas() -> str | None:
    found = shutil.which("ptxas")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (Path(root) / "bin" / "ptxas").is_file():
            return str(Path(root) / "bin" / "ptxas")
    return None


@functools.lru_cache(maxsize=64)
def register_counts(ptx_text: str, arch: str = "sm_75") -> dict[str, int] | None:
    """{kernel: registers per thread} as ptxas allocates them for ``arch``,
    or None when ptxas is not installed or rejects the module."""
    ptxas = find_ptxas()
    if ptxas is None:
        return None
    with tempfile.TemporaryDirectory(prefix="accelsim-ptxas-") as tmp:
        src = Path(tmp) / "m.ptx"
        src.write_text(ptx_text)
        r = subprocess.run([ptxas, f"-arch={arch}", "-v", "-o", str(Path(tmp) / "m.cubin"), str(src)],
                           capture_output=True, text=True)
    if r.returncode != 0:
        return None
    counts, current = {}, None
    for line in (r.stdout + r.stderr).splitlines():
        if m := _ENTRY.search(line):
            current = m.group(1)
        elif (m := _USED.search(line)) and current is not None:
            counts[current] = int(m.group(1))
            current = None
    return counts
