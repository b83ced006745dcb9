"""Generates the bad-input catalogue of docs/reliability.md from real runs:
every case of ``catalogue_cases`` runs as the user would run it (the CLI or a
Python snippet, in a fresh process, with a timeout), and the table shows what
the user sees.

    python -m accelsim.devtools.catalogue [--set trace|inputs|ptx|cuda] [--doc docs/reliability.md] [--json out.json]

Four sets of cases: ``trace`` (catalogue_cases: traces, configs, the CLI),
``inputs`` (catalogue_inputs: paths, nesting, names, tuning arguments, damaged
sweep runs), ``ptx`` (catalogue_ptx: PTX mode) and ``cuda`` (catalogue_cuda:
programs under ``accelsim cuda``, built with nvcc first); each has its own
generated section.

Verdicts: ``ok`` (a clean one-line error, or the warning / clean end the case
expects), ``TRACEBACK`` (an internal Python error), ``CRASH`` (killed by a
signal), ``HANG`` (ran past the timeout), ``SILENT`` (accepted a bad input
without a word), ``SLOW-CTRL-C`` (Ctrl-C took more than a second)."""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from accelsim.devtools import catalogue_cases, catalogue_cuda, catalogue_inputs, catalogue_ptx
from accelsim.devtools.catalogue_cases import Case

_REPO = str(Path(__file__).resolve().parents[3])  # the checkout (or site-packages)
BEGIN, END = "<!-- catalogue:begin (generated) -->", "<!-- catalogue:end -->"
# set name -> (its cases, the markers of its section in the document)
SETS = {"trace": (catalogue_cases.cases, (BEGIN, END)),
        "inputs": (catalogue_inputs.cases,
                   ("<!-- catalogue-inputs:begin (generated) -->", "<!-- catalogue-inputs:end -->")),
        "ptx": (catalogue_ptx.cases, ("<!-- catalogue-ptx:begin (generated) -->", "<!-- catalogue-ptx:end -->")),
        "cuda": (catalogue_cuda.cases,
                 ("<!-- catalogue-cuda:begin (generated) -->", "<!-- catalogue-cuda:end -->"))}
# set name -> what it builds before its cases run (placeholders it adds)
PREPARE = {"cuda": catalogue_cuda.prepare}
_API = """import sys, warnings
warnings.simplefilter("always")
import accelsim
try:
{body}
except accelsim.AccelsimError as exc:
    print(f"{{type(exc).__name__}}: {{exc}}", file=sys.stderr)
    sys.exit(1)
except KeyboardInterrupt:  # what a script shows on Ctrl-C, without the frames
    print("KeyboardInterrupt", file=sys.stderr)
    sys.exit(130)
"""


def _fill(text: str, env: dict) -> str:
    for key, value in env.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def _prepare(root: Path) -> dict:
    """The shared inputs: a generated workload, a saved result, hostile traces."""
    import accelsim
    from accelsim.devtools.hostile import write_all
    from accelsim.devtools.fuzz.seeds import shared_data
    from accelsim.tracegen.examples import write_vecadd

    example = write_vecadd(root / "example", n=1024, block=128).parent
    result = root / "result"
    accelsim.Simulator("QV100").run(example).save(result)
    write_all(root / "hostile")
    env = {"example": example, "result": result, "hostile": root / "hostile"}
    shared = shared_data()
    if shared:
        env["bfs"] = shared / "traces" / "bfs_rodinia31_sm70"
    return env


def _seen(stdout: str, stderr: str) -> str:
    """What the user reads: the error (or warning) lines, else the output's start."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    if "Traceback (most recent call last)" in stderr:
        return lines[-1] if lines else ""
    text = " / ".join(lines) if lines else " / ".join(ln.strip() for ln in stdout.splitlines()[:2])
    return text[:400]


def run_case(case: Case, folder: Path, env: dict) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    env = {**env, "d": folder}
    for name, content in case.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    if case.cli:
        argv = [sys.executable, "-m", "accelsim", *(_fill(a, env) for a in case.cli)]
    else:
        body = "\n".join("    " + ln for ln in _fill(case.code, env).splitlines())
        argv = [sys.executable, "-c", _API.format(body=body)]
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True, cwd=folder,
                            env={**os.environ, "COLUMNS": "200"})
    sigint_at = None
    try:
        if case.sigint_after is not None:
            try:
                out, err = proc.communicate(timeout=case.sigint_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                sigint_at = time.monotonic()
                out, err = proc.communicate(timeout=case.timeout)
        else:
            out, err = proc.communicate(timeout=case.timeout)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        hung = True
    took = time.monotonic() - start
    after_sigint = time.monotonic() - sigint_at if sigint_at else None
    return _judge(case, proc.returncode, out, err, hung, took, after_sigint)


def _judge(case: Case, rc: int, out: str, err: str, hung: bool, took: float,
           after_sigint: float | None) -> dict:
    seen = _seen(out, err)
    if hung:
        verdict, seen = "HANG", f"(no answer after {case.timeout:g} s; killed) {seen}"[:400]
    elif rc is not None and rc < 0 and rc != -signal.SIGINT:
        verdict = "CRASH"
        seen = f"(killed by {signal.Signals(-rc).name}) {seen}"
    elif "Traceback (most recent call last)" in err:
        verdict = "TRACEBACK"
    elif case.forbid and re.search(case.forbid, out + err):
        verdict = "WRONG"
        seen = f"(output contains /{case.forbid}/) {seen}"
    elif after_sigint is not None and after_sigint > 1.0:
        verdict = "SLOW-CTRL-C"
        seen = f"(ended {after_sigint:.1f} s after Ctrl-C) {seen}"
    elif rc != 0:
        verdict = "ok"
    elif case.expect == "ends":
        verdict = "ok"
    elif case.expect == "warn" and err.strip():
        verdict = "ok"
    else:
        verdict = "SILENT"
        seen = f"(exit 0) {seen}"
    if after_sigint is not None and verdict == "ok":
        seen = f"(ended {after_sigint:.2f} s after Ctrl-C, exit {rc}) {seen}"
    return {"section": case.section, "input": case.title, "expect": case.expect,
            "verdict": verdict, "exit": rc, "seconds": round(took, 2), "seen": seen}


def generate(jobs: int = 2, only_sections: set | None = None, which: str = "trace") -> list[dict]:
    chosen = [c for c in SETS[which][0]() if not only_sections or c.section in only_sections]
    with tempfile.TemporaryDirectory(prefix="accelsim-catalogue-") as tmp:
        root = Path(tmp)
        env = _prepare(root)
        if which in PREPARE:
            env.update(PREPARE[which](root))
        runnable = [(i, c) for i, c in enumerate(chosen) if not c.needs or c.needs in env]
        with ThreadPoolExecutor(jobs) as pool:
            rows = list(pool.map(lambda ic: run_case(ic[1], root / f"case{ic[0]:03d}", env),
                                 runnable))
    for n, row in enumerate(rows, start=1):
        row["n"] = n
    return rows


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").replace(str(Path(tempfile.gettempdir())), "$TMP")


def markdown(rows: list[dict], which: str = "trace") -> str:
    counts: dict = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    summary = ", ".join(f"{v}: {n}" for v, n in sorted(counts.items()))
    begin, end = SETS[which][1]
    option = "" if which == "trace" else f" --set {which}"
    out = [begin, "",
           f"{len(rows)} cases ({summary}); generated by `python -m accelsim.devtools.catalogue{option}` "
           f"on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", "",
           "| # | § | bad input | expect | verdict | exit | what the user sees |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        seen = re.sub(r"/(?:tmp|dev/shm)/[^\s'\"]*?accelsim-catalogue-[^/]+/", "…/", r["seen"])
        seen = seen.replace(_REPO + "/", "<repo>/")
        out.append(f"| {r['n']} | {r['section']} | {_cell(r['input'])} | {r['expect']} | "
                   f"{r['verdict']} | {r['exit']} | {_cell(seen)} |")
    out += ["", end]
    return "\n".join(out)


def update_doc(doc: Path, table: str, which: str = "trace") -> None:
    update_doc_section(doc, table, SETS[which][1])


def update_doc_section(doc: Path, table: str, markers: tuple[str, str]) -> None:
    """Replaces what lies between the markers (``table`` holds them), or
    appends ``table`` when the document has none yet."""
    begin, end = markers
    text = doc.read_text() if doc.exists() else ""
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + table + rest.split(end, 1)[1]
    else:
        text = text.rstrip() + "\n\n" + table + "\n"
    doc.write_text(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m accelsim.devtools.catalogue")
    ap.add_argument("--doc", help="rewrite the catalogue section of this Markdown file")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--section", action="append", help="only these sections (§0, §1, §3, more, PTX §1, ...)")
    ap.add_argument("--set", default="trace", choices=sorted(SETS), help="which cases (default: trace)")
    args = ap.parse_args(argv)
    rows = generate(args.jobs, set(args.section) if args.section else None, args.set)
    table = markdown(rows, args.set)
    if args.doc:
        update_doc(Path(args.doc), table, args.set)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if not args.doc:
        print(table)
    bad = [r for r in rows if r["verdict"] != "ok"]
    print(f"{len(rows)} cases, {len(bad)} not ok", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
