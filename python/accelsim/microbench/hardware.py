"""Results of the same microbenchmarks on real GPUs, keyed by config name:
the figures of configs/published/measured.yaml measured the way the twin's
defaults measure (its own unit, no generator options: a figure taken another
way, such as the TITAN V's sequential mem_lat, is compared by
``accelsim.microbench.fidelity`` with the options it names).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping


class _HardwareValues(Mapping):
    """config name -> {benchmark: value}, read from the measured figures on first use."""

    def _table(self) -> dict[str, dict[str, float]]:
        from accelsim.microbench.published import cards
        from accelsim.microbench.suite import BENCHMARKS

        return {name: {f.quantity: f.value for f in card.figures
                       if f.quantity in BENCHMARKS and f.unit == BENCHMARKS[f.quantity].unit
                       and not f.options}
                for name, card in cards().items()}

    def __getitem__(self, name: str) -> dict[str, float]:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


HARDWARE_VALUES: Mapping[str, dict[str, float]] = _HardwareValues()


def hardware_value(config_name: str, bench: str) -> float | None:
    return HARDWARE_VALUES.get(config_name, {}).get(bench)
