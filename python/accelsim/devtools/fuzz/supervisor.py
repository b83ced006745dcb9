"""Runs fuzz inputs in a worker process and survives it: the worker is
restarted after a crash, an abort, a signal or a hang, and the input it was
on (read from a shared page) becomes a finding."""
from __future__ import annotations

import base64
import json
import mmap
import os
import pickle
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from accelsim.devtools.fuzz.targets import TARGETS, input_for, render

STARTUP_S = 120.0  # importing accelsim on a loaded machine
# Lines that say why a process died (sanitizers, C++ runtime, CPython).
_CRASH_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "terminate called", "Fatal Python error",
                "ERROR: LeakSanitizer", "what():")


@dataclass
class Finding:
    target: str
    seed: int
    index: int
    kind: str          # exception, crash, timeout
    type: str
    message: str
    where: str
    count: int = 1

    @property
    def key(self) -> tuple:
        return (self.target, self.kind, self.type, self.where)

    def describe(self) -> str:
        value = input_for(self.target, self.seed, self.index) if self.index >= 0 else None
        return (f"[{self.target}] {self.kind}: {self.type}: {self.message}\n"
                f"  at {self.where} ({self.count} input(s) like this)\n"
                f"  input #{self.index}: {render(value, 1500)}\n"
                f"  replay: python -m accelsim.devtools.fuzz --replay "
                f"{self.target}:{self.seed}:{self.index}")


@dataclass
class TargetReport:
    target: str
    inputs: int = 0
    seconds: float = 0.0
    restarts: int = 0
    findings: dict = field(default_factory=dict)  # key -> Finding

    def add(self, f: Finding) -> None:
        if f.key in self.findings:
            self.findings[f.key].count += 1
        else:
            self.findings[f.key] = f

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0


class Worker:
    """One child process running inputs of any target."""

    def __init__(self, timeout_s: float, memory_mb: int = 4096):
        self.timeout_s, self.memory_mb = timeout_s, memory_mb
        root = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self._dir = Path(tempfile.mkdtemp(prefix="accelsim-fuzz-", dir=root))
        self._progress = self._dir / "progress"
        self._progress.write_bytes(b"\0" * 16)
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.restarts = 0

    def _start(self) -> None:
        scratch = self._dir / "scratch"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
        self._stderr = open(self._dir / "stderr", "w+b")
        self._buffer = b""
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "accelsim.devtools.fuzz.worker", str(self._progress),
             str(self.memory_mb), str(scratch)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0,
            start_new_session=True)
        with open(self._progress, "r+b") as f:
            self._page = mmap.mmap(f.fileno(), 16)
        struct.pack_into("<q", self._page, 0, -1)
        msg = self._read(STARTUP_S, watch_progress=False)
        if msg is None or msg.get("op") != "ready":
            raise RuntimeError(f"fuzz worker did not start: {self._stderr_tail()}")

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        assert self._proc is not None, "worker not started"
        return self._proc

    def _stderr_tail(self) -> str:
        self._stderr.flush()
        self._stderr.seek(0)
        text = self._stderr.read().decode(errors="replace").strip().splitlines()
        return " | ".join(text[-6:])[-600:]

    def _crash_report(self) -> tuple[str, str]:
        """(headline, place) of a dead worker: the sanitizer's or runtime's
        error line and the first frame in accelsim's C++, else the stderr tail."""
        self._stderr.flush()
        self._stderr.seek(0)
        lines = self._stderr.read().decode(errors="replace").splitlines()
        head = next((ln.strip() for ln in lines if any(m in ln for m in _CRASH_MARKS)), "")
        frame = next((ln.strip() for ln in lines if ln.strip().startswith("#") and "/cpp/" in ln), "")
        place = "worker process"
        m = re.search(r" in (.+?) \S*/(cpp/[^\s:]+:\d+)", frame)
        if m:  # "cpp/ldst/coalescer.cpp:16 (request_for)"
            func = m.group(1).split("(")[0].split("::")[-1]
            place = f"{m.group(2)} ({func})"
        return (head[:300] if head else self._stderr_tail()), place

    def current(self) -> int:
        return struct.unpack_from("<q", self._page, 0)[0]

    def _read(self, timeout_s: float, watch_progress: bool = True):
        """The next message; None when the worker died or one input ran past the timeout."""
        last, since = self.current(), time.monotonic()
        while True:
            if b"\n" in self._buffer:  # a message already read with an earlier one
                line, _, self._buffer = self._buffer.partition(b"\n")
                return json.loads(line)
            assert self.proc.stdout is not None
            fd = self.proc.stdout.fileno()
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
                continue
            if self.proc.poll() is not None:
                return None
            now, cur = time.monotonic(), self.current()
            if watch_progress and cur != last:
                last, since = cur, now
            elif now - since > timeout_s:
                self.kill()
                return {"op": "timeout"}

    def kill(self) -> None:
        if self._proc and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait()

    def _death(self, target: str, seed: int, index: int, timed_out: bool) -> Finding:
        if timed_out:
            kind, typ, msg = "timeout", "Timeout", f"no result after {self.timeout_s:g} s"
        else:
            rc = self.proc.wait()
            kind = "crash"
            typ = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
            msg, place = self._crash_report()
            self._proc = None
            self.restarts += 1
            return Finding(target, seed, index, kind, typ, msg, place)
        self._proc = None
        self.restarts += 1
        return Finding(target, seed, index, kind, typ, msg, "worker process")

    def _send(self, req: dict) -> None:
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(req) + "\n").encode())
        self.proc.stdin.flush()

    def batch(self, target: str, seed: int, start: int, count: int) -> tuple[int, list[Finding]]:
        """Runs inputs start..start+count-1; returns (next index to run, findings)."""
        self._send({"op": "batch", "target": target, "seed": seed, "start": start,
                    "count": count})
        findings = []
        while True:
            msg = self._read(self.timeout_s)
            if msg is None or msg["op"] == "timeout":
                index = self.current()
                findings.append(self._death(target, seed, index, msg is not None))
                return index + 1, findings
            if msg["op"] == "done":
                return start + count, findings
            findings.append(Finding(target, seed, msg["index"], msg["kind"], msg["type"],
                                    msg["message"], msg["where"]))

    def one(self, target: str, value) -> Finding | None:
        """Runs one given input (e.g. from hypothesis); the finding, if any."""
        self._send({"op": "one", "target": target, "index": -2,
                    "input": base64.b64encode(pickle.dumps(value)).decode()})
        msg = self._read(self.timeout_s)
        if msg is None or msg["op"] == "timeout":
            f = self._death(target, 0, -1, msg is not None)
        elif msg["finding"]:
            m = msg["finding"]
            f = Finding(target, 0, -1, m["kind"], m["type"], m["message"], m["where"])
        else:
            return None
        f.message += f"\n  input: {render(value, 1500)}"
        return f

    def close(self) -> None:
        if self._proc and self._proc.poll() is None:
            if self._proc.stdin:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def fuzz_target(target: str, *, inputs: int, seconds: float | None = None, seed: int = 0,
                start: int = 0, timeout_s: float | None = None, batch: int = 200,
                memory_mb: int = 4096, on_batch=None) -> TargetReport:
    """Runs up to ``inputs`` inputs of ``target`` (stopping after ``seconds``)."""
    t = TARGETS[target]
    timeout_s = timeout_s or (30.0 if t.slow else 10.0)
    report = TargetReport(target)
    begin = time.monotonic()
    index, end = start, start + inputs
    with Worker(timeout_s, memory_mb) as worker:
        while index < end:
            if seconds is not None and time.monotonic() - begin > seconds:
                break
            step = min(batch if not t.slow else max(1, batch // 50), end - index)
            index, found = worker.batch(target, seed, index, step)
            for f in found:
                report.add(f)
            report.inputs = index - start
            report.seconds = time.monotonic() - begin
            if on_batch:
                on_batch(report)
        report.restarts = worker.restarts
    report.seconds = time.monotonic() - begin
    return report
