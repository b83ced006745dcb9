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
    ``path``, ``line``, ``column`` (1-based) and the offending ``token`` say where.
    For a module compiled from CUDA (``Module.from_cuda``) they name the CUDA
    source line, and ``ptx_line`` the line of the generated PTX."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 column: int | None = None, token: str | None = None, ptx_line: int | None = None):
        super().__init__(message, path=path, line=line, field=token)
        self.column = column
        self.token = token
        self.ptx_line = ptx_line


class DeviceMemoryError(AccelsimError, MemoryError):
    """A device allocation beyond the simulated GPU's memory (its config's
    ``dram_capacity``, or ``Device(memory_bytes=...)``), as cudaMalloc returns
    cudaErrorMemoryAllocation: ``requested``, ``in_use`` and ``capacity`` bytes."""

    def __init__(self, message: str, requested: int = 0, in_use: int = 0, capacity: int = 0):
        super().__init__(message)
        self.requested, self.in_use, self.capacity = requested, in_use, capacity


class DeviceTypeError(AccelsimError, TypeError):
    """Host data a device array cannot take without losing it (strings, objects,
    another dtype whose values do not fit), or an implicit conversion of a device
    array to NumPy: as in CuPy, data moves only through ``copy_to_host`` /
    ``copy_from_host`` (``get`` / ``set``)."""


class RunStopped(AccelsimError, RuntimeError):
    """A run ended early (its cycle budget, or ``on_progress`` returning True)
    before what the call waits for was done, e.g. the data of a synchronous
    ``copy_to_host``; ``result`` is that run's partial SimResult."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class ProgramKilled(AccelsimError, RuntimeError):
    """The CUDA program ``accelsim.run_cuda`` ran died of a signal in its own
    host code (or was killed) before its end: ``signal`` names it
    (``"SIGSEGV"``), ``meaning`` says what it means and ``returncode`` is the
    negative signal number, as ``subprocess`` gives it. The message names all
    three; the runtime's line on stderr adds where (host code or a CUDA
    call) and whether the address was simulated device memory."""

    def __init__(self, message: str, signal: str, meaning: str, returncode: int):
        super().__init__(message)
        self.signal = signal
        self.meaning = meaning
        self.returncode = returncode


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or any ``KeyboardInterrupt``) stopped ``Simulator.run`` or a PTX
    ``Device``'s run (``synchronize``, a synchronous copy; for ``save_trace``,
    ``result`` is the kernelslist.g of the kernels written whole); ``result``
    is the partial ``SimResult``: what was simulated up to the interrupt, with
    ``completed`` False, ``interrupted`` True and each kernel's ``status``
    (``simulated``, ``cut_off``, ``not_reached``, ``not_selected``). A subclass of
    KeyboardInterrupt, so code that does not catch it stops as on any Ctrl-C."""

    def __init__(self, result):
        cycles = getattr(result, "total_cycles", None)
        super().__init__(f"interrupted at cycle {cycles}" if cycles is not None else f"interrupted ({result})")
        self.result = result
