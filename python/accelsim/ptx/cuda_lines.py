"""CUDA source lines behind compiled PTX, so an error in a module made by
``Module.from_cuda`` names the line of the .cu source (from the ``.loc`` /
``.file`` directives line info leaves in the PTX) rather than a PTX line
number the user never saw."""
from __future__ import annotations

import bisect
import re
from pathlib import PurePath

from accelsim.errors import PtxError

__all__ = ["CudaLines", "ptx_name_for", "relocate"]

_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)(?:\s+(\d+))?")
_FUNC = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(?:entry|func)\b")


def ptx_name_for(source_name: str) -> str:
    """The name the PTX compiled from ``source_name`` carries in messages."""
    return f"<PTX of {source_name}>"


class CudaLines:
    """PTX line -> (CUDA file, line, column) from a module's line info."""

    def __init__(self, ptx_text: str, source_name: str):
        self.source_name = source_name
        files: dict[int, str] = {}
        locs: list[tuple[int, int, int, int]] = []  # (PTX line, file id, line, column); file 0: none
        for n, text in enumerate(ptx_text.splitlines(), start=1):
            if m := _FILE.match(text):
                files[int(m[1])] = m[2]
            elif m := _LOC.match(text):
                locs.append((n, int(m[1]), int(m[2]), int(m[3] or 0)))
            elif _FUNC.match(text):
                locs.append((n, 0, 0, 0))  # a new function: no line until its first .loc
        own = PurePath(source_name).name
        self._files = {k: (source_name if PurePath(v).name == own else v) for k, v in files.items()}
        self._locs = locs
        self._at = [entry[0] for entry in locs]

    def __bool__(self) -> bool:
        return any(f for _, f, _, _ in self._locs)

    def lookup(self, ptx_line: int) -> tuple[str, int, int] | None:
        k = bisect.bisect_left(self._at, ptx_line) - 1
        if k < 0 or self._locs[k][1] == 0 or self._locs[k][2] == 0:
            return None
        _, fid, line, col = self._locs[k]
        return self._files.get(fid, f"file {fid}"), line, col


def _detail(e: PtxError) -> tuple[str, str]:
    """The message without its "path:line:column: " and its " (at 'token')"."""
    text = str(e)
    prefix = f"{e.path}:{e.line}" + (f":{e.column}" if e.column else "") + ": "
    text = text[len(prefix):] if text.startswith(prefix) else text
    at = f" (at '{e.token}')" if e.token else ""
    return (text[:-len(at)], at) if at and text.endswith(at) else (text, "")


def relocate(e: PtxError, modules) -> PtxError:
    """``e`` as the user of ``Module.from_cuda`` should see it: at the CUDA
    line when the PTX line has one, else saying the line is in the generated
    PTX. Errors of other modules come back unchanged."""
    for m in modules:
        lines = getattr(m, "cuda_lines", None)
        if lines is None or e.path != ptx_name_for(lines.source_name):
            continue
        where = f"line {e.line}" + (f", column {e.column}" if e.column else "")
        detail, at = _detail(e)
        found = lines.lookup(e.line) if e.line else None
        if found is None:
            what = "" if e.line is None else f" ({where} of the PTX generated from {lines.source_name}; that PTX " \
                                             f"line has no CUDA source line)"
            return PtxError(f"{lines.source_name}: {detail}{what}{at}", path=lines.source_name, token=e.token,
                            ptx_line=e.line)
        path, line, col = found
        return PtxError(f"{path}:{line}: {detail} (PTX {where} of the code generated from it){at}",
                        path=path, line=line, column=col or None, token=e.token, ptx_line=e.line)
    return e
