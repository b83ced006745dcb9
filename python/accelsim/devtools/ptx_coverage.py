"""The PTX coverage table (docs/ptx_coverage.md): which PTX instructions the
emulator runs (from its opcode data, ``configs/ptx/opcodes.txt``) and which
of those that real programs use it lacks.

    python -m accelsim.devtools.ptx_coverage [--doc docs/ptx_coverage.md] [--json out.json]

The real programs are the CUDA suites (``../shared/data/apps``: every .cu
source of every program of ``accelsim.bench.cuda_apps``, compiled with
``nvcc -ptx`` for compute_75 as the suite table builds them) and the test
programs of this repository (``tests/cuda_programs``), when present. Each
instruction is read as its opcode and dotted modifiers, and judged as the
front end judges it: an opcode or modifier the opcode data does not list is
refused by the parser; the forms the emulator refuses when it prepares a
launch (``_LAUNCH_LIMITS``) are named; everything else runs. Each module is
also parsed by the real parser, whose verdict (the first error) is shown
per program."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

BEGIN, END = "<!-- ptx-coverage:begin (generated) -->", "<!-- ptx-coverage:end -->"
_REPO = Path(__file__).resolve().parents[3]
# An instruction statement: optional guard, opcode, dotted modifiers.
_STATEMENT = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][a-z0-9_]*)((?:\.[A-Za-z0-9_:]+)*)(?=[\s;])")
# Forms the parser takes but the emulator refuses when it prepares a launch
# (cpp/ptx/program.cpp, `prepare`): (test on opcode and modifiers, reason).
_LAUNCH_LIMITS: list = []  # none today: every form the parser takes launches


def opcode_table() -> dict[str, set[str]]:
    """{opcode: the modifiers the parser accepts}, from the opcode data."""
    from accelsim._paths import data_dir

    table: dict[str, set[str]] = {}
    for line in (data_dir() / "ptx" / "opcodes.txt").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            table[words[0]] = set(words[1:])
    return table


def instructions(ptx: str) -> list[tuple[str, tuple[str, ...]]]:
    """(opcode, modifiers) of every instruction statement of a PTX text."""
    out = []
    for raw in ptx.splitlines():
        line = raw.split("//", 1)[0]
        if ".callprototype" in line or line.lstrip().startswith((".", "{", "}", "$")) or line.rstrip().endswith(":"):
            continue
        m = _STATEMENT.match(line)
        if m:
            out.append((m.group(1), tuple(x for x in m.group(2).split(".") if x)))
    return out


def row_of(op: str, mods: tuple[str, ...], table: dict[str, set[str]]) -> str:
    """The opcode-data row an instruction takes, as the parser picks it: a
    row "op.x.y" is the variant of `op` written with .x and .y among its
    modifiers (bar.cta.red.popc is bar.red); the one naming the most wins,
    else `op` itself."""
    best, best_n = op, 0
    for name in sorted(table):
        parts = name.split(".")
        if parts[0] == op and len(parts) > 1 and all(p in mods for p in parts[1:]) and len(parts) - 1 > best_n:
            best, best_n = name, len(parts) - 1
    return best


def verdict(op: str, mods: tuple[str, ...], table: dict[str, set[str]]) -> str:
    """"runs", or why the front end refuses the form."""
    row = row_of(op, mods, table)
    if row not in table:
        return f"parser: no opcode `{op}`"
    missing = [m for m in mods if m not in table[row] and m not in row.split(".")[1:]]
    if missing:
        return f"parser: `{row}` without modifier " + ", ".join(f"`.{m}`" for m in missing)
    for test, why in _LAUNCH_LIMITS:
        if test(op, set(mods)):
            return f"emulator: {why}"
    return "runs"


def parser_verdict(ptx: str, name: str) -> str:
    """The real parser on the module: "parses", or its first error: a parse
    error, else the first kernel a launch of which would stop before it
    runs (an instruction the parser kept as unsupported, which stops only
    the kernels that reach it)."""
    from accelsim import _core
    from accelsim.errors import PtxError
    from accelsim.ptx._tables import tables

    try:
        mod = _core.PtxModule.parse(ptx, name, tables())
        for k in mod.kernels():
            mod.check_kernel(k["name"])
    except PtxError as e:
        return str(e).splitlines()[0][:200]
    return "parses"


def _ptx_of(sources: list[Path], flags: list[str], cwd: Path, nvcc: Path, out: Path,
            archs: list[str]) -> tuple[list[str], str]:
    """PTX modules of the .cu sources for each arch, or ([], nvcc's first error)."""
    texts = []
    for arch in archs:
        for i, src in enumerate(s for s in sources if s.suffix == ".cu"):
            target = out / f"{src.stem}.{i}.{arch}.ptx"
            proc = subprocess.run([str(nvcc), "-ptx", f"-arch={arch}", "-O3", "-w", *flags, str(src), "-o",
                                   str(target)], capture_output=True, text=True, cwd=cwd, timeout=600)
            if proc.returncode != 0:
                errors = [ln for ln in (proc.stderr or proc.stdout).splitlines() if "error" in ln]
                return [], (errors or ["nvcc failed"])[0].split("/")[-1][:160]
            texts.append(target.read_text())
    return texts, ""


def programs(nvcc: Path, work: Path, archs: list[str]) -> list[dict]:
    """{suite, program, ptx (its modules), why} for every program found
    (no modules: not built)."""
    from accelsim.bench.cuda_apps import APPS, COMPAT_FLAGS, _expand, apps_folder

    found = []
    root = apps_folder()
    for app in APPS:
        if root is None:
            break
        out = work / app.suite / app.name
        out.mkdir(parents=True, exist_ok=True)
        flags = [*COMPAT_FLAGS, *_expand(app.flags, root, app, None)]
        ptx, why = _ptx_of([root / app.folder / s for s in app.sources], flags, root / app.folder, nvcc, out, archs)
        found.append({"suite": app.suite, "program": app.name, "ptx": ptx, "why": why})
    tests = _REPO / "tests" / "cuda_programs"
    for src in sorted(tests.glob("*.cu")) if tests.is_dir() else []:
        out = work / "tests" / src.stem
        out.mkdir(parents=True, exist_ok=True)
        ptx, why = _ptx_of([src], ["-I", str(tests)], tests, nvcc, out, archs)
        found.append({"suite": "tests", "program": src.stem, "ptx": ptx, "why": why})
    return found


def survey(found: list[dict]) -> dict:
    """Per program: its parser verdict and missing forms; per missing form:
    its reason and the programs that use it."""
    table = opcode_table()
    lacking: dict[str, dict] = {}
    used: dict[str, set] = defaultdict(set)
    rows = []
    for p in found:
        label = f"{p['suite']}/{p['program']}"
        if not p["ptx"]:
            rows.append({"program": label, "parser": "–", "missing": [], "why": p["why"]})
            continue
        missing = set()
        for op, mods in (form for text in p["ptx"] for form in instructions(text)):
            used[row_of(op, mods, table)].add(label)
            why = verdict(op, mods, table)
            if why != "runs":
                form = ".".join((op, *mods))
                lacking.setdefault(form, {"why": why, "programs": set()})["programs"].add(label)
                missing.add(form)
        verdicts = [parser_verdict(text, label) for text in p["ptx"] if ".entry" in text]  # not host-only sources
        rows.append({"program": label, "parser": next((v for v in verdicts if v != "parses"), "parses"),
                     "missing": sorted(missing), "why": ""})
    return {"table": table, "programs": rows, "lacking": lacking, "used": used}


def markdown(s: dict, archs: tuple | list = ("compute_75",)) -> str:
    table, used = s["table"], s["used"]
    built = [r for r in s["programs"] if r["parser"] != "–"]
    lines = [BEGIN, "",
             f"Generated by `python -m accelsim.devtools.ptx_coverage` on "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} (PTX for {', '.join(archs)}): "
             f"{len(s['programs'])} programs, "
             f"{len(built)} compiled to PTX, {sum(r['parser'] == 'parses' for r in built)} of those parse whole.",
             "", "### What the emulator runs (the opcode data)", "",
             "| opcode | modifiers it accepts | programs using it |", "|---|---|---|"]
    for op in sorted(table):
        lines.append(f"| `{op}` | {' '.join(sorted(table[op])) or '–'} | {len(used.get(op, ()))} |")
    lines += ["", "A row named `op.x` is a variant: `op` written with `.x` among its modifiers (its own row, "
              "semantics and grammar).", "",
              "Refused when a launch is prepared although the parser takes them: " +
              ("; ".join(why for _, why in _LAUNCH_LIMITS) or "none") + ".", "",
              "### What the real programs need and the emulator lacks", "",
              "| instruction form | why it does not run | programs | which |", "|---|---|---|---|"]
    for form, info in sorted(s["lacking"].items(), key=lambda kv: (-len(kv[1]["programs"]), kv[0])):
        names = sorted(info["programs"])
        shown = ", ".join(names[:6]) + (f", … ({len(names) - 6} more)" if len(names) > 6 else "")
        lines.append(f"| `{form}` | {info['why']} | {len(names)} | {shown} |")
    lines += ["", "### Per program", "", "| program | the parser on its PTX | forms it lacks |", "|---|---|---|"]
    for r in s["programs"]:
        verdict_text = r["parser"] if r["parser"] != "–" else f"not compiled: {r['why']}"
        lacks = ", ".join(f"`{f}`" for f in r["missing"]) or "–"
        lines.append(f"| {r['program']} | {verdict_text.replace('|', '/')} | {lacks} |")
    lines += ["", END]
    return "\n".join(lines)


def main(argv=None) -> int:
    from accelsim.cuda.nvcc import find_nvcc
    from accelsim.devtools.catalogue import update_doc_section

    ap = argparse.ArgumentParser(prog="python -m accelsim.devtools.ptx_coverage")
    ap.add_argument("--doc", help="rewrite the generated section of this Markdown file")
    ap.add_argument("--json", help="write the survey here")
    ap.add_argument("--arch", action="append", help="virtual archs to compile for (default: compute_75 and "
                                                    "compute_90, the ends of the range nvcc 12/13 targets)")
    args = ap.parse_args(argv)
    archs = args.arch or ["compute_75", "compute_90"]
    nvcc = find_nvcc()
    if nvcc is None:
        print("no working nvcc: install a CUDA toolkit or pip install nvidia-cuda-nvcc", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="accelsim-coverage-") as tmp:
        s = survey(programs(nvcc, Path(tmp), archs))
    text = markdown(s, archs)
    if args.doc:
        update_doc_section(Path(args.doc), text, (BEGIN, END))
    else:
        print(text)
    if args.json:
        Path(args.json).write_text(json.dumps({
            "programs": s["programs"],
            "lacking": {k: {"why": v["why"], "programs": sorted(v["programs"])} for k, v in s["lacking"].items()}},
            indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
