"""A traced workload: the command list of kernelslist.g and its kernels."""
from __future__ import annotations


from accelsim import _core
from accelsim.trace._isa import isa_registry
from accelsim.trace.kernel import MIX_COLUMNS, Kernel
from accelsim.trace.paths import resolve_trace_path

KERNEL_COLUMNS = ["id", "name", "grid", "block", "shmem", "nregs", "stream", "binary_version",
                  "thread_blocks", "warp_instructions", "thread_instructions", "path"]


class Trace:
    """A workload read from Accel-Sim SASS traces (see ``open_trace``)."""

    def __init__(self, path, isa_dir=None, opcode_units: dict | None = None):
        self.path = resolve_trace_path(path)
        self._registry = isa_registry(isa_dir, opcode_units)
        self._commands = _core.read_command_list(str(self.path))
        self._counts: dict = {}
        # Headers only (cheap); bodies are streamed on demand.
        self._kernels = [Kernel(c[3], _registry=self._registry, _counts_cache=self._counts)
                         for c in self._commands if c[0] == "kernel"]

    def __repr__(self) -> str:
        return f"<Trace {self.path} kernels={len(self._kernels)}>"

    def __len__(self) -> int:
        return len(self._kernels)

    @property
    def commands(self):
        """DataFrame of kernelslist.g: line, kind (kernel / memcpy_htod /
        other), text, kernel_path, address, bytes."""
        import pandas as pd

        return pd.DataFrame([(line, kind, *rest) for kind, line, *rest in self._commands],
                            columns=["line", "kind", "text", "kernel_path", "address", "bytes"])

    @property
    def kernels(self):
        """DataFrame, one row per kernel launch (counts computed once)."""
        import pandas as pd

        rows = []
        for k in self._kernels:
            i, c = k.info, k.sizes()
            rows.append({"id": i.id, "name": i.name, "grid": i.grid, "block": i.block,
                         "shmem": i.shmem, "nregs": i.nregs, "stream": i.stream,
                         "binary_version": i.binary_version, "thread_blocks": c["thread_blocks"],
                         "warp_instructions": c["warp_instructions"],
                         "thread_instructions": c["thread_instructions"], "path": i.path})
        return pd.DataFrame(rows, columns=KERNEL_COLUMNS)

    def kernel(self, kernel_id: int) -> Kernel:
        """The kernel whose header says ``-kernel id = kernel_id``."""
        for k in self._kernels:
            if k.info.id == kernel_id:
                return k
        known = ", ".join(str(k.info.id) for k in self._kernels)
        raise KeyError(f"no kernel with id {kernel_id} (ids: {known})")

    def __iter__(self):
        return iter(self._kernels)

    def __getitem__(self, position: int) -> Kernel:
        """The kernel at ``position`` in launch order (0-based); see also
        ``kernel(kernel_id)``."""
        return self._kernels[position]

    def instruction_mix(self, kernel_id: int | None = None):
        """Counts by opcode, unit class and memory space for one kernel, or
        summed over all kernels when ``kernel_id`` is None."""
        import pandas as pd

        if kernel_id is not None:
            return self.kernel(kernel_id).instruction_mix()
        frames = [k.instruction_mix() for k in self._kernels]
        if not frames:
            return pd.DataFrame(columns=MIX_COLUMNS)
        df = pd.concat(frames).groupby(["opcode", "unit", "mem_space"], as_index=False).sum()
        return df.sort_values(["warp_instructions", "opcode"], ascending=[False, True],
                              kind="stable").reset_index(drop=True)[MIX_COLUMNS]

    def totals(self) -> dict:
        """Workload totals: kernels, thread blocks, warp / thread instructions, memcpys."""
        counts = [k.sizes() for k in self._kernels]
        return {"kernels": len(self._kernels),
                "thread_blocks": sum(c["thread_blocks"] for c in counts),
                "warp_instructions": sum(c["warp_instructions"] for c in counts),
                "thread_instructions": sum(c["thread_instructions"] for c in counts),
                "memcpy_htod": sum(1 for c in self._commands if c[0] == "memcpy_htod"),
                "memcpy_htod_bytes": sum(c[5] for c in self._commands if c[0] == "memcpy_htod")}


def open_trace(path, isa_dir=None, opcode_units: dict | None = None) -> Trace:
    """Opens a traced workload: a ``kernelslist.g``, a folder containing one,
    or a single ``kernel-N.traceg`` (plain, .gz or .xz). ``isa_dir`` replaces
    the bundled ISA tables; ``opcode_units`` maps opcodes to other unit
    classes (as a GPU config's ``opcode_units`` does)."""
    return Trace(path, isa_dir=isa_dir, opcode_units=opcode_units)
