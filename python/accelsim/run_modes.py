"""How a run may be sampled or split, below the simulator that offers it.

What a sampled run is asked for: ``KernelSampling`` (simulate a few
launches of each group of similar kernels, project the rest) and
``IntraKernelSampling`` (simulate a long kernel's CTA waves until they are
steady, project the rest). Both are checked when made: a bad value is a
ConfigError naming the field.

Who carries out a kernel-sampled or a split run: ``accelsim.sampling``,
which sits above the simulator (it runs simulators, on the sweep's
engines), registers its two entry points here when it is imported. The
package's facade installs a loader that imports it on the first sampled or
split run, so ``Simulator.run`` reaches them without an upward import and a
plain run never pays for importing it. The same in every process.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable

from accelsim.errors import ConfigError

_RUNNERS: dict[str, Callable] = {}
_LOADERS: list[Callable[[], object]] = []


def set_runner_loader(load: Callable[[], object]) -> None:
    """``load()`` registers the runners (the facade passes an import of ``accelsim.sampling``)."""
    _LOADERS[:] = [load]


def register_runner(kind: str, run: Callable) -> None:
    """``kind``: "kernel_sampling" or "split"."""
    _RUNNERS[kind] = run


def runner(kind: str) -> Callable:
    if kind not in _RUNNERS:
        for load in _LOADERS:
            load()
    if kind not in _RUNNERS:
        raise RuntimeError(f"no {kind} runner registered: accelsim.sampling was not imported")
    return _RUNNERS[kind]


def _check_int(owner: str, name: str, value, low: int, high: int) -> None:
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise ConfigError(f"{owner}.{name} must be an integer, got {value!r}", key=name) from None
    if not low <= number <= high:
        raise ConfigError(f"{owner}.{name} = {number} is out of range: allowed [{low}, {high}]", key=name)


def _check_fraction(owner: str, name: str, value, low: float, high: float, none_ok: bool = False) -> None:
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low < value <= high:
        raise ConfigError(f"{owner}.{name} must be a number in ({low}, {high}], got {value!r}", key=name)


@dataclass(frozen=True)
class KernelSampling:
    """Kernel-level sampling (after PKA and Sieve; docs/sampling.md).

    Launches are grouped by name, launch shape and a cheap profile read from
    the first ``profile_blocks`` thread blocks of each trace (0: the whole
    trace), splitting a group where profiles differ by more than ``spread``.
    ``per_cluster`` launches of each group, spread over the run, are
    simulated in detail, each after ``warmup`` preceding kernels simulated
    to warm the GPU and, before those, earlier kernels replayed into the
    caches without timing until their footprint is ``replay`` times the L2
    size (none of them counted); the other launches are projected from
    their group. With ``target_error``, more launches are simulated,
    round after round, until the total's 95% bound is below it (relative),
    or ``max_fraction`` of the estimated instructions have been simulated.
    ``seed`` picks which launches."""
    per_cluster: int = 2
    target_error: float | None = None
    max_fraction: float = 0.3
    spread: float = 0.1
    profile_blocks: int = 2
    warmup: int = 1
    replay: float = 2.0
    seed: int = 0
    max_rounds: int = 6

    def __post_init__(self):
        owner = "KernelSampling"
        _check_int(owner, "per_cluster", self.per_cluster, 1, 1_000_000)
        _check_fraction(owner, "target_error", self.target_error, 0.0, 1.0, none_ok=True)
        _check_fraction(owner, "max_fraction", self.max_fraction, 0.0, 1.0)
        _check_fraction(owner, "spread", self.spread, 0.0, 10.0)
        _check_int(owner, "profile_blocks", self.profile_blocks, 0, 1_000_000)
        _check_int(owner, "warmup", self.warmup, 0, 100)
        if isinstance(self.replay, bool) or not isinstance(self.replay, (int, float)) or not 0 <= self.replay <= 100:
            raise ConfigError(f"{owner}.replay must be a number in [0, 100] (times the L2 size), "
                              f"got {self.replay!r}", key="replay")
        _check_int(owner, "seed", self.seed, 0, 2**63 - 1)
        _check_int(owner, "max_rounds", self.max_rounds, 1, 100)


@dataclass(frozen=True)
class IntraKernelSampling:
    """Intra-kernel sampling (after TBPoint and Photon; docs/sampling.md).

    A kernel of at least ``min_waves`` CTA waves (a wave: the CTAs that fit
    on the GPU at once) is simulated until its last ``window`` waves run at
    the rates of the ``window`` waves before them (cycles per wave, IPC, L2
    and DRAM accesses per cycle, within ``tolerance``; the first wave never
    counts) and the projection's 95% bound is within ``tolerance`` of the
    kernel's cycles. It then dispatches no more CTAs, lets the resident ones
    finish, and projects the CTAs never dispatched at the steady cycles per
    wave (status ``sampled``, the bound in ``cycles_bound``). Only a kernel
    alone on the GPU stops early.

    In PTX mode (``accelsim.ptx.Device(sample=...)``, ``accelsim cuda
    --sample intra``) the CTAs never dispatched still run, functionally
    (emulated in dispatch order at no simulated time), so the program's
    results are those of a full run; ``warm_tail`` has their global and
    local accesses warm L2 as they go, so later kernels find what those CTAs
    would have left there (traces never read those CTAs: no effect there)."""
    tolerance: float = 0.03
    window: int = 4
    min_waves: int = 10
    warm_tail: bool = True

    def __post_init__(self):
        owner = "IntraKernelSampling"
        _check_fraction(owner, "tolerance", self.tolerance, 0.0, 1.0)
        _check_int(owner, "window", self.window, 2, 1000)
        _check_int(owner, "min_waves", self.min_waves, 1, 1_000_000)
        if not isinstance(self.warm_tail, bool):
            raise ConfigError(f"{owner}.warm_tail must be True or False, got {self.warm_tail!r}",
                              key="warm_tail")

    def core_options(self) -> dict:
        return {"tolerance": float(self.tolerance), "window": int(self.window),
                "min_waves": int(self.min_waves), "warm_tail": self.warm_tail}


def split_sample(sample) -> tuple[KernelSampling | None, IntraKernelSampling | None]:
    """``sample``: None, one of the two, or a list/tuple of them (both kinds
    at once: kernel sampling whose simulated launches are intra-sampled)."""
    if sample is None:
        return None, None
    items = list(sample) if isinstance(sample, (list, tuple)) else [sample]
    kernel = [s for s in items if isinstance(s, KernelSampling)]
    intra = [s for s in items if isinstance(s, IntraKernelSampling)]
    if len(kernel) + len(intra) != len(items) or len(kernel) > 1 or len(intra) > 1:
        raise ConfigError("sample must be accelsim.KernelSampling(...), accelsim.IntraKernelSampling(...) "
                          f"or one of each in a list, got {sample!r}", key="sample")
    return (kernel[0] if kernel else None), (intra[0] if intra else None)


def intra_only(sample, owner: str) -> IntraKernelSampling | None:
    """PTX mode's ``sample``: None or an IntraKernelSampling. Kernel sampling
    does not apply there: it projects whole kernels without running them,
    and a program needs every kernel's results."""
    if sample is None or isinstance(sample, IntraKernelSampling):
        return sample
    if isinstance(sample, KernelSampling):
        raise ConfigError(f"{owner}: kernel sampling does not apply in PTX mode (it projects kernels without "
                          "running them, and a program needs every kernel's results); use "
                          "accelsim.IntraKernelSampling(...)", key="sample")
    raise ConfigError(f"{owner} must be accelsim.IntraKernelSampling(...) or None, got {sample!r}", key="sample")
