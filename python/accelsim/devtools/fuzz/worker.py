"""The fuzz worker: a child process that runs inputs in-process, batch after
batch, and tells the supervisor which input it is on through a shared page,
so that a crash, an abort or a hang is pinned to one input. Its protocol
runs over the original stdout; what parsers print goes to stderr."""
from __future__ import annotations

import base64
import json
import mmap
import os
import pickle
import resource
import struct
import sys
import traceback
import warnings
from pathlib import Path

from accelsim.errors import AccelsimError


def where(exc: BaseException) -> str:
    """The innermost frame inside accelsim (else the innermost): the finding's place."""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "accelsim" in f.filename and "devtools" not in f.filename]
    if not frames:
        return "?"
    frame = (inside or frames)[-1]
    short = frame.filename.rsplit("/accelsim/", 1)[-1]
    return f"{short}:{frame.lineno} in {frame.name}"


def run_input(target, value, scratch: Path) -> dict | None:
    """None when the outcome is acceptable, else the finding."""
    if isinstance(value, dict) and "__fuzz_selftest__" in value:
        _selftest(value["__fuzz_selftest__"])
    try:
        target.run(value, scratch)
    except AccelsimError:
        return None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - anything else is the finding
        message = str(exc).splitlines()[0][:300] if str(exc) else ""
        return {"kind": "exception", "type": type(exc).__name__, "message": message,
                "where": where(exc)}
    return None


def _selftest(what: str) -> None:
    """Lets the tests prove the harness catches what it claims to."""
    if what == "abort":
        os.abort()
    if what == "hang":
        import time

        time.sleep(3600)


def main() -> None:
    from accelsim.devtools.fuzz.targets import TARGETS, input_for

    progress_path, memory_mb, scratch = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    if memory_mb > 0:  # a runaway allocation becomes MemoryError, not a machine swapping
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warnings.simplefilter("ignore")  # a warning is an acceptable outcome
    with open(progress_path, "r+b") as f:
        page = mmap.mmap(f.fileno(), 16)
    proto.write(json.dumps({"op": "ready"}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        target = TARGETS[req["target"]]
        if req["op"] == "one":
            struct.pack_into("<q", page, 0, req.get("index", 0))
            value = pickle.loads(base64.b64decode(req["input"]))
            found = run_input(target, value, scratch)
            proto.write(json.dumps({"op": "done", "finding": found}) + "\n")
            continue
        seed, start, count = req["seed"], req["start"], req["count"]
        for index in range(start, start + count):
            struct.pack_into("<q", page, 0, index)
            found = run_input(target, input_for(target.name, seed, index), scratch)
            if found:
                proto.write(json.dumps({"op": "finding", "index": index, **found}) + "\n")
        proto.write(json.dumps({"op": "done"}) + "\n")


if __name__ == "__main__":
    main()
