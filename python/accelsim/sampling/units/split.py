"""Cutting one workload into units of consecutive commands of about equal
work, each to be simulated on its own (another process, another machine).

Work is estimated by the size of each kernel's trace text (read from the
xz/gzip index or the file size: nothing is decompressed), which follows its
instruction count. A copy travels with the kernel after it. Without a flush
between commands, a unit's window also holds the ``warmup`` kernels before
it (and the copies between): they are simulated to warm the caches, DRAM
rows and queues, and left out of the unit's counts (RunOptions count_from);
before those, kernels are replayed into L2 (RunOptions replay) until their
footprint reaches ``replay_bytes``, as kernel sampling does.
"""
from __future__ import annotations

from dataclasses import dataclass

from accelsim.sampling.profile import text_size


@dataclass(frozen=True)
class Unit:
    index: int
    first: int       # first command of the window (warm-up included)
    count_from: int  # first command counted
    end: int         # one past its last command
    replay: tuple[int, ...] = ()  # kernels of the warm-up replayed, not simulated

    def core_options(self) -> dict:
        out: dict = {"first_command": self.first, "count_from": self.count_from, "end_command": self.end}
        if self.replay:
            out["replay"] = list(self.replay)
        return out

    def describe(self) -> str:
        warm = f", warm-up from {self.first}" if self.first < self.count_from else ""
        return f"unit {self.index} (commands {self.count_from}-{self.end - 1}{warm})"


def command_costs(commands: list) -> list[float]:
    """Estimated work of each command: a kernel's trace text bytes, a copy's
    bytes / 64 (a copy moves data, it runs no instructions)."""
    out = []
    for kind, _line, _text, path, _address, size in commands:
        if kind == "kernel":
            out.append(float(text_size(path) or 1))
        else:
            out.append(float(size or 0) / 64.0)
    return out


def _cuts(costs: list[float], kernels: list[int], pieces: int) -> list[int]:
    """Command positions where units start (always a kernel's position, the
    first unit at 0), about equal work each."""
    total = sum(costs) or 1.0
    starts, acc, want = [0], 0.0, total / pieces
    kernel_set = set(kernels)
    for pos, c in enumerate(costs):
        if pos in kernel_set and pos > starts[-1] and acc >= want * len(starts) and len(starts) < pieces:
            starts.append(_owning_start(pos, kernel_set, starts[-1]))
        acc += c
    return starts


def _owning_start(pos: int, kernel_set: set[int], floor: int) -> int:
    """A unit starting at kernel ``pos`` also takes the copies just before it."""
    start = pos
    while start - 1 > floor and start - 1 not in kernel_set:
        start -= 1
    return start


def split_commands(commands: list, pieces: int, warmup: int, replay_bytes: float = 0.0,
                   footprint=None) -> list[Unit]:
    """``pieces`` units (fewer when there are fewer kernels), each with a
    warm-up window of ``warmup`` kernels before it (0: none) and, before
    those, kernels replayed until ``footprint(position)`` of them adds up to
    ``replay_bytes``."""
    kernels = [i for i, c in enumerate(commands) if c[0] == "kernel"]
    pieces = max(1, min(pieces, len(kernels)))
    starts = _cuts(command_costs(commands), kernels, pieces)
    units = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(commands)
        before = [k for k in kernels if k < start]
        near = before[-warmup:] if warmup else []
        far: list[int] = []
        reach = 0.0
        for k in reversed(before[:len(before) - len(near)]):
            if start == 0 or reach >= replay_bytes or footprint is None:
                break
            far.append(k)
            reach += footprint(k)
        first = min(far + near + [start])
        replayed = sorted(set(far) | {k for k in kernels if first <= k < (near[0] if near else start)})
        units.append(Unit(i, first, start, end, tuple(replayed)))
    return units
