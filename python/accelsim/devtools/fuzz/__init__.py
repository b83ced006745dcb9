"""Parser fuzzing: every input runs in a worker process (restarted when it
dies), so a crash, abort, signal or hang is reported with the exact input.
The only acceptable outcomes are success and an ``accelsim.AccelsimError``.

    python -m accelsim.devtools.fuzz --per-parser 1000000 --json fuzz.json
    python -m accelsim.devtools.fuzz --replay trace_line:0:1234

Used in the test suite (tests/test_fuzz_parsers.py) with a time bound."""
from accelsim.devtools.fuzz.supervisor import Finding, TargetReport, Worker, fuzz_target
from accelsim.devtools.fuzz.targets import TARGETS, input_for, render

__all__ = ["Finding", "TARGETS", "TargetReport", "Worker", "fuzz_target", "input_for", "render"]
