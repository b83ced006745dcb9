"""SASS-guided PTX mode (``Device(records="sass")``, docs/ptx.md, "SASS-guided PTX mode"):
which real SASS instructions ptxas made of each PTX line.

The module's PTX is rewritten so every instruction carries a ``.loc`` naming
its own PTX line, compiled with ``ptxas -lineinfo`` and disassembled with
``nvdisasm -g``; every SASS instruction then names the PTX line it came from.
The emulator records, for each executed PTX instruction, those SASS opcodes
instead of the generic lowering table (configs/ptx/lowering.txt)."""
from __future__ import annotations

import functools
import re
import struct
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from accelsim.errors import PtxError
from accelsim.ptx import sass_blocks as sb
from accelsim.ptx import sass_unroll
from accelsim.ptx.ptxas import (KernelResources, find_tool, parse_ptxas_verbose, run_ptxas, targets,
                                tool_candidates)

__all__ = ["SassInst", "SassFunction", "SassMap", "annotate_ptx", "parse_nvdisasm", "line_map",
           "sass_map", "sass_arch", "require_tools", "OLDEST_NVDISASM_ARCH", "VOLTA_FAMILY",
           "read_as_turing"]

# nvdisasm 13 refuses SM70 ("deprecated, use CUDA 13.0 or earlier") and
# ptxas 13 cannot emit it: Volta's own SASS needs CUDA 12's ptxas, and its
# cubin is read with Turing's decoder (read_as_turing); without that ptxas,
# Volta runs take Turing SASS (same instruction set family, docs).
OLDEST_NVDISASM_ARCH = 75
VOLTA_FAMILY = (70, 72)
# Turing's uniform datapath: a Volta listing holding one was misread
_UNIFORM_OP = re.compile(r"^(U[A-Z0-9]+|S2UR|R2UR|VOTEU)(\.|$)")
PTX_FILE_NAME = "accelsim_ptx_lines.ptx"

_TARGET = re.compile(r"^\s*\.target\s+sm_(\d+)", re.M)
_LOC_FILE = re.compile(r"^\.(loc|file)\s")
_LABEL_LINE = re.compile(r"^[\w$.%]+\s*:$")
_SECTION = re.compile(r"^\s*\.section\s+\.text\.([^,\s]+)")
_MARKER = re.compile(r'^\s*//## File "([^"]*)", line (\d+)')
_INST = re.compile(r"^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*;")
_BODY = re.compile(r"^\{?\s*(@!?U?P(?:T|\d+)\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Za-z0-9_]+)*)(.*)$")
_LABEL = re.compile(r"^\s*(\.L[\w$.]*|[\w$.]+):\s*$")
_TARGET_LABEL = re.compile(r"`\(([^)]+)\)")
_ROUTINE = re.compile(r"^\s*\.type\s+([^,\s]+)\s*,\s*@function")
# ptxas's out-of-line subroutines (f32/f64 division and sqrt slow paths,
# 64-bit integer division): each is called behind a check (FCHK, "are the
# high words zero") that sends common operands down the inline fast path
_SLOW_PATH = re.compile(r"^\$__internal_\d+_\$__cuda_")


def require_tools() -> tuple[str, str]:
    """(ptxas, nvdisasm) paths, or a PtxError saying what to install."""
    ptxas, nvdisasm = find_tool("ptxas"), find_tool("nvdisasm")
    missing = [n for n, p in (("ptxas", ptxas), ("nvdisasm", nvdisasm)) if p is None]
    if missing:
        raise PtxError(f"records='sass' needs {' and '.join(missing)}: pip install 'accelsim[ptx]' "
                       "(the nvidia-cuda-nvcc and nvidia-cuda-nvdisasm wheels; no GPU or toolkit needed) "
                       "or put a CUDA toolkit's bin folder on PATH / $CUDA_HOME")
    return ptxas, nvdisasm  # type: ignore[return-value]


def ptx_target(ptx_text: str) -> int:
    m = _TARGET.search(ptx_text)
    return int(m.group(1)) if m else 0


def sass_arch(gpu_arch: int, ptx_text: str, own_volta: bool = False) -> int:
    """The SASS generation disassembled for a GPU of ``gpu_arch`` (70 =
    Volta): with ``own_volta`` Volta's own when some ptxas still targets it
    (CUDA 12's; the PTX's .target is then lowered to it), else its own
    unless nvdisasm cannot read it or the PTX targets a newer one (ptxas
    compiles PTX only for its .target or later)."""
    if own_volta and int(gpu_arch) in VOLTA_FAMILY and targets(int(gpu_arch)):
        return int(gpu_arch)
    return max(int(gpu_arch), OLDEST_NVDISASM_ARCH, ptx_target(ptx_text))


# --- 1. PTX with one .loc per instruction ---------------------------------

def annotate_ptx(ptx_text: str) -> str:
    """The PTX with its own .file/.loc lines removed and ``.loc 1 N 0``
    before every instruction (N = the instruction's line in ``ptx_text``),
    so line numbers in the SASS are lines of the text the user gave."""
    out: list[str] = []
    depth, at_start = 0, True  # inside a body; the next code starts a statement
    for n, raw in enumerate(ptx_text.splitlines(), 1):
        code = raw.split("//", 1)[0].strip()
        if _LOC_FILE.match(code):
            out.append("")  # keeps the line count; a stale .loc would mislead ptxas
            continue
        if code and depth > 0 and at_start and not code.startswith((".", "{", "}")) \
                and not _LABEL_LINE.match(code):
            out.append(f"\t.loc 1 {n} 0")
        out.append(raw)
        if code:
            depth += code.count("{") - code.count("}")
            at_start = code.endswith((";", "{", "}", ":"))
    text = "\n".join(out) + "\n"
    m = re.search(r"^\s*\.address_size[^\n]*\n", text, re.M) or re.search(r"^\s*\.target[^\n]*\n", text, re.M)
    if m is None:
        raise PtxError("PTX without a .target directive cannot be compiled by ptxas")
    return text[:m.end()] + f'.file 1 "{PTX_FILE_NAME}"\n' + text[m.end():]


# --- 2. nvdisasm -g output -----------------------------------------------

@dataclass(frozen=True)
class SassInst:
    address: int
    opcode: str          # with modifiers: "LDG.E.SYS"
    line: int | None     # PTX line, None when the SASS names no line of ours
    pred: str = ""       # guard, e.g. "@!P0"
    operands: str = ""
    label: str | None = None  # label just before it
    routine: str = ""         # the function or ptxas subroutine it belongs to


@dataclass
class SassFunction:
    name: str
    insts: list[SassInst] = field(default_factory=list)


def parse_nvdisasm(text: str, path: str = "<nvdisasm>", file_name: str = PTX_FILE_NAME) -> dict[str, SassFunction]:
    """{function: SassFunction} from ``nvdisasm -g`` text. Lines outside
    .text sections, directives and comments are skipped; a malformed
    instruction or line marker is a PtxError naming ``path`` and the line."""
    funcs: dict[str, SassFunction] = {}
    cur: SassFunction | None = None
    line: int | None = None
    label: str | None = None
    routine = ""
    for n, raw in enumerate(text.splitlines(), 1):
        if m := _SECTION.match(raw):
            cur = funcs.setdefault(m.group(1), SassFunction(m.group(1)))
            line, label, routine = None, None, m.group(1)
            continue
        if m := _ROUTINE.match(raw):
            routine = m.group(1)
            continue
        if "//##" in raw:
            m = _MARKER.match(raw)
            if m is None:
                raise PtxError(f"{path}:{n}: unreadable line marker: {raw.strip()[:80]!r}", path=path, line=n)
            same_file = Path(m.group(1)).name == file_name
            line = int(m.group(2)) if same_file and int(m.group(2)) > 0 else None
            continue
        if m := _LABEL.match(raw):
            label = m.group(1)
            continue
        if not raw.lstrip().startswith("/*"):
            continue
        m = _INST.match(raw)
        body = _BODY.match(m.group(2)) if m else None
        if body is None or m is None:
            raise PtxError(f"{path}:{n}: unreadable SASS instruction: {raw.strip()[:80]!r}", path=path, line=n)
        if cur is None:
            raise PtxError(f"{path}:{n}: SASS instruction outside a .text section", path=path, line=n)
        cur.insts.append(SassInst(int(m.group(1), 16), body.group(2), line, (body.group(1) or "").strip(),
                                  body.group(3).strip(), label, routine))
        label = None
    return funcs


def _strip_padding(insts: list[SassInst]) -> list[SassInst]:
    """Drops the never-executed tail ptxas appends after the last EXIT: a
    branch to itself and alignment NOPs."""
    end = len(insts)
    while end and insts[end - 1].opcode == "NOP":
        end -= 1
    if end and insts[end - 1].opcode == "BRA" and insts[end - 1].label:
        t = _TARGET_LABEL.search(insts[end - 1].operands)
        if t and t.group(1) == insts[end - 1].label:
            end -= 1
    return insts[:end]


def _copies(runs: list[list[SassInst]]) -> int:
    """How many copies of a line's SASS ptxas made (1: none). An opcode found
    once in each of c separate runs is one instruction copied c times; the
    largest such c whose opcodes make at least half the line's SASS wins
    (a sequence that scheduling merely split shares few opcodes that way)."""
    count = Counter(i.opcode for run in runs for i in run)
    in_runs = Counter(op for run in runs for op in {i.opcode for i in run})
    total = sum(count.values())
    cands: Counter[int] = Counter()
    for op, c in count.items():
        if c >= 2 and in_runs[op] == c:
            cands[c] += c
    for k in sorted(cands, reverse=True):
        if 2 * cands[k] >= total:
            return k
    return 1


def _spelling(inst: SassInst) -> str:
    """The opcode as recorded: ``!OP`` for SASS guarded by ``@!PT``, which
    issues but no lane runs (Volta's prologue ``@!PT SHFL.IDX``; a real
    trace has it with an empty mask)."""
    return f"!{inst.opcode}" if inst.pred == "@!PT" else inst.opcode


def line_map(funcs: list[SassFunction]) -> tuple[dict[int, list[str]], dict[str, int]]:
    """({PTX line: SASS opcodes recorded per execution}, counts of what the
    rules below changed) for the SASS of ``funcs`` (a kernel and the .funcs
    it may call).

    * SASS naming no line of ours goes with the line before it (at a
      function's start: the first line after it), as the prologue does.
    * A line whose SASS ptxas duplicated (unrolling, tail duplication) is
      recorded as one copy per execution (``_copies`` finds the copy count).
    * Padding after the last EXIT is dropped (never executes), and so are
      ptxas's out-of-line subroutines (``$__internal_N_$__cuda_*``): they run
      only for operands a check (which the fast path records) sends there."""
    stats: Counter[str] = Counter()
    per_line: dict[int, list[list[SassInst]]] = {}  # line -> runs of consecutive SASS
    for f in funcs:
        insts = _strip_padding(f.insts)
        stats["padding_dropped"] += len(f.insts) - len(insts)
        fast = [i for i in insts if not _SLOW_PATH.match(i.routine)]
        stats["slow_path_dropped"] += len(insts) - len(fast)
        insts = fast
        first = next((i.line for i in insts if i.line is not None), None)
        prev_line, prev_idx = first, -2
        for idx, inst in enumerate(insts):
            line = inst.line
            if line is None:
                stats["no_line"] += 1
                line = prev_line
            if line is None:
                continue
            runs = per_line.setdefault(line, [])
            if runs and prev_line == line and prev_idx == idx - 1:
                runs[-1].append(inst)
            else:
                runs.append([inst])
            prev_line, prev_idx = line, idx
    out: dict[int, list[str]] = {}
    for line, runs in per_line.items():
        ops = [_spelling(i) for run in runs for i in run]
        k = _copies(runs)
        if k > 1:
            keep = {op: -(-c // k) for op, c in Counter(ops).items()}  # ceil: one copy's worth
            kept = []
            for op in ops:
                if keep[op]:
                    kept.append(op)
                    keep[op] -= 1
            stats["duplicates_dropped"] += len(ops) - len(kept)
            ops = kept
        out[line] = ops
    return out, dict(stats)


# --- 3. the whole pipeline, cached per module text and arch ------------------

@dataclass
class SassMap:
    arch: int                                   # SASS generation disassembled
    lines: dict[str, dict[int, list[str]]]      # kernel -> PTX line -> SASS opcodes
    resources: dict[str, KernelResources]
    stats: dict[str, dict[str, int]]
    sass: str                                   # the nvdisasm text (for inspection)
    # ptxas's control-flow graph per kernel (its blocks and its .funcs' and
    # subroutines'), each SASS block's PTX block, and the module's PTX blocks
    blocks: dict[str, list[sb.SassBlock]] = field(default_factory=dict)
    block_map: dict[str, dict[str, int | None]] = field(default_factory=dict)
    ptx_blocks: sb.PtxBlocks = field(default_factory=sb.PtxBlocks)
    fallback: str = ""  # why a Volta GPU got newer SASS (ptxas refused the module for Volta)
    # per kernel, the loops ptxas unrolled again that are recorded per SASS
    # block (sass_unroll.recording_plan), and why others are not
    loops: dict[str, list] = field(default_factory=dict)
    loops_unread: dict[str, list[str]] = field(default_factory=dict)

    def loop_specs(self, kernel: str) -> list[tuple]:
        """The kernel's unrolled loops as PtxLaunch(sass_loops=...) takes them."""
        return [(list(p.lines), p.k, p.body, p.every_k, p.at_exit) for p in self.loops.get(kernel, [])]


def sass_map(ptx_text: str, gpu_arch: int, path: str = "<ptx>", own_volta: bool = False) -> SassMap:
    """Compiles and disassembles the module once per (text, SASS generation):
    GPUs older than nvdisasm's oldest share its SASS. A Volta GPU gets Volta
    SASS unless the module needs more than Volta has (ptxas refuses it for
    sm_70), then Turing's, with ptxas's reason in ``fallback``. Volta's own
    only with ``own_volta`` (docs/ptx.md says why it is not the default)."""
    arch = sass_arch(gpu_arch, ptx_text, own_volta)
    if arch in VOLTA_FAMILY:
        own = _volta_map(ptx_text, arch, path)
        if isinstance(own, SassMap):
            return own
        newer = _sass_map(ptx_text, max(arch, OLDEST_NVDISASM_ARCH, ptx_target(ptx_text)), path)
        newer.fallback = own
        return newer
    return _sass_map(ptx_text, arch, path)


class _OlderRefused(PtxError):
    """ptxas would not compile the module for the older (Volta) target."""


@functools.lru_cache(maxsize=32)
def _volta_map(ptx_text: str, arch: int, path: str) -> SassMap | str:
    """The Volta map, or why ptxas refused the module for Volta."""
    try:
        return _sass_map(ptx_text, arch, path)
    except _OlderRefused as e:
        return str(e)


def read_as_turing(cubin: bytes, arch: int, path: str = "<cubin>") -> bytes:
    """A Volta (``arch``) cubin whose ELF header names sm_75, for nvdisasm 13,
    which refuses SM70 but whose Turing decoder reads Volta's instructions:
    Turing kept Volta's 128-bit encoding and added opcodes (the uniform
    datapath), so a Volta listing read this way must hold none of those
    (checked after decoding; tests compare it with a real Volta trace)."""
    if len(cubin) < 52 or cubin[:4] != b"\x7fELF" or cubin[4] != 2:
        raise PtxError(f"ptxas output for {path} is not a 64-bit ELF cubin", path=path)
    flags = struct.unpack_from("<I", cubin, 48)[0]  # e_flags: SM in bits 0-7, virtual SM in 16-23
    if flags & 0xFF != arch or (flags >> 16) & 0xFF != arch:
        raise PtxError(f"cubin of {path}: ELF flags {flags:#x} do not name sm_{arch} where expected", path=path)
    out = bytearray(cubin)
    struct.pack_into("<I", out, 48, (flags & ~0xFF00FF) | (OLDEST_NVDISASM_ARCH << 16) | OLDEST_NVDISASM_ARCH)
    return bytes(out)


def _run_nvdisasm(nvdisasm: str, cubin: bytes, args: list[str]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="accelsim-nvdisasm-") as tmp:
        cfile = Path(tmp) / "m.cubin"
        cfile.write_bytes(cubin)
        return subprocess.run([nvdisasm, *args, str(cfile)], capture_output=True, text=True)


def _nvdisasm(nvdisasm: str, cubin: bytes, args: list[str], path: str, arch: int) -> str:
    """The listing of ``cubin``; an arch older than nvdisasm 13 reads goes to
    an older nvdisasm that still reads it (a CUDA 12 toolkit), else is read
    with Turing's decoder (``read_as_turing``)."""
    if arch < OLDEST_NVDISASM_ARCH:
        for older in tool_candidates("nvdisasm"):
            r = _run_nvdisasm(older, cubin, args)
            if r.returncode == 0:
                return r.stdout
        cubin = read_as_turing(cubin, arch, path)
    r = _run_nvdisasm(nvdisasm, cubin, args)
    if r.returncode != 0:
        raise PtxError(f"nvdisasm could not disassemble {path} (sm_{arch}): {r.stderr.strip()}", path=path)
    return r.stdout


def _graph(nvdisasm: str, cubin: bytes, funcs: dict[str, SassFunction], path: str,
           arch: int) -> dict[str, list[sb.SassBlock]]:
    """ptxas's control-flow graph from ``nvdisasm -bbcfg``; for an older
    toolkit's cubin, which nvdisasm 13 lists but does no flow analysis on,
    rebuilt from the listing (``sass_blocks.cfg_from_listing``)."""
    try:
        return sb.parse_bbcfg(_nvdisasm(nvdisasm, cubin, ["-bbcfg", "-poff"], path, arch),
                              path=f"nvdisasm -bbcfg output for {path}")
    except PtxError:
        if arch >= OLDEST_NVDISASM_ARCH:
            raise
        return sb.cfg_from_listing(funcs)


def _check_volta(funcs: dict[str, SassFunction], path: str, arch: int) -> None:
    """A Volta listing read with Turing's decoder holds no Turing-only opcode."""
    if arch >= OLDEST_NVDISASM_ARCH:
        return
    for f in funcs.values():
        for i in f.insts:
            if _UNIFORM_OP.match(i.opcode):
                raise PtxError(f"Volta SASS of {path} read with Turing's decoder holds {i.opcode} "
                               f"(at {f.name}+{i.address:#x}): Volta has no uniform datapath, so the "
                               "listing was misread; install a CUDA 12 nvdisasm", path=path)


def _compile(ptx_text: str, arch: int, path: str) -> tuple[str, bytes]:
    """(ptxas -v log, cubin) of the annotated module; for an arch older than
    the PTX's .target (Volta) with the target lowered, refused as
    _OlderRefused."""
    older = arch < OLDEST_NVDISASM_ARCH
    rc, log, cubin = run_ptxas(annotate_ptx(ptx_text), f"sm_{arch}", ("-lineinfo",), keep_cubin=True,
                               lower_target=older)
    if rc != 0 or cubin is None:
        error = _OlderRefused if older else PtxError
        raise error(f"ptxas could not compile {path} for sm_{arch}:\n{log.strip()[-2000:]}", path=path)
    return log, cubin


@functools.lru_cache(maxsize=32)
def _sass_map(ptx_text: str, arch: int, path: str) -> SassMap:
    _, nvdisasm = require_tools()
    log, cubin = _compile(ptx_text, arch, path)
    listing = _nvdisasm(nvdisasm, cubin, ["-g", "-c"], path, arch)
    funcs = parse_nvdisasm(listing, path=f"nvdisasm output for {path}")
    _check_volta(funcs, path, arch)
    cfg = _graph(nvdisasm, cubin, funcs, path, arch)
    sb.attach(cfg, funcs)
    ptx = sb.ptx_blocks(ptx_text)
    resources = parse_ptxas_verbose(log, f"sm_{arch}")
    entries = set(resources)
    out = SassMap(arch, {}, resources, {}, listing, ptx_blocks=ptx)
    for name in entries:
        # non-inlined .funcs: shared, or cloned per kernel as "$kernel$func"
        helpers = [f for h, f in funcs.items()
                   if h not in entries and (not h.startswith("$") or h.startswith(f"${name}$"))]
        group = ([funcs[name]] if name in funcs else []) + helpers
        routines = {i.routine for f in group for i in f.insts} | {f.name for f in group}
        blocks = [b for r, bl in cfg.items() if r in routines and not _SLOW_PATH.match(r) for b in bl]
        mapping = sb.map_blocks(blocks, ptx)
        moved, n_moved = sb.relocate(blocks, mapping, ptx)
        group = [SassFunction(f.name, sb.with_lines(f.insts, moved)) for f in group]
        out.lines[name], out.stats[name] = line_map(group)
        out.stats[name]["moved_to_block"] = n_moved
        out.blocks[name], out.block_map[name] = blocks, mapping
        out.loops[name], out.loops_unread[name] = unrolled_loop_records(blocks, mapping, ptx)
    return out


def unrolled_loop_records(blocks: list[sb.SassBlock], mapping: dict[str, int | None],
                          ptx: sb.PtxBlocks) -> tuple[list, list[str]]:
    """(the recording plans of the loops ptxas unrolled again, why the others
    have none): each PTX block that loops on itself and whose SASS blocks
    hold several body copies (docs/ptx.md, "Basic blocks")."""
    plans, unread = [], []
    for home in sorted(sb.restructured(blocks, mapping)):
        factors = sb.unroll_factors(blocks, mapping, home, ptx)
        if not any(f > 1 for f in factors.values()) or home not in ptx.succs[home]:
            continue
        try:
            plans.append(sass_unroll.recording_plan(blocks, factors, ptx.lines[home]))
        except sass_unroll.Unreadable as e:
            unread.append(f"PTX block {home} (line {ptx.lines[home][0]}): {e}")
    return plans, unread
