"""Exceptions raised by accelsim. Each names where the problem is."""
from __future__ import annotations


class AccelsimError(Exception):
    """Base class of every accelsim error."""


class AccelsimWarning(UserWarning):
    """Something accelsim can run but a user probably did not mean (a command
    it does not understand, a trace of another GPU architecture than the config's)."""


class TraceFormatWarning(AccelsimWarning):
    """A trace deviated from the Accel-Sim format in a way that was read anyway."""


class _InputError(AccelsimError, ValueError):
    """An input file is malformed: ``path``, ``line`` (1-based) and ``field`` say where."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 field: str | None = None):
        super().__init__(message)
        self.path = path
        self.line = line
        self.field = field


class TraceError(_InputError):
    """A trace file is malformed: ``path``, ``line`` (1-based) and ``field`` say where."""


class ProfileError(_InputError):
    """A hardware profiler export could not be read: ``path``, ``line`` and ``field`` say where."""


class ConfigError(AccelsimError, ValueError):
    """A configuration key or value is invalid; ``key`` names it."""

    def __init__(self, message: str, key: str | None = None, path: str | None = None,
                 line: int | None = None):
        super().__init__(message)
        self.key = key
        self.path = path
        self.line = line


class DeadlockError(AccelsimError, RuntimeError):
    """The simulation made no progress while work was outstanding."""


class PtxError(_InputError):
    """PTX input that cannot be parsed or run, or a bad kernel launch:
    ``path``, ``line``, ``column`` (1-based) and the offending ``token`` say where."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 column: int | None = None, token: str | None = None):
        super().__init__(message, path=path, line=line, field=token)
        self.column = column
        self.token = token


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or any ``KeyboardInterrupt``) stopped ``Simulator.run``; ``result``
    is the partial ``SimResult``: what was simulated up to the interrupt, with
    ``completed`` False, ``interrupted`` True and each kernel's ``status``
    (``simulated``, ``cut_off``, ``not_reached``, ``not_selected``). A subclass of
    KeyboardInterrupt, so code that does not catch it stops as on any Ctrl-C."""

    def __init__(self, result):
        super().__init__(f"interrupted at cycle {result.total_cycles}")
        self.result = result
