"""Results of the same microbenchmarks on real GPUs, keyed by config name:
the figures of configs/published/measured.yaml that are in the twin's own
unit (``accelsim.microbench.published``; source and row per value there).
Only numbers measured on hardware (or published as measured) belong there.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping


class _HardwareValues(Mapping):
    """config name -> {benchmark: value}, read from the measured figures on first use."""

    def _table(self) -> dict[str, dict[str, float]]:
        from accelsim.microbench.published import cards
        from accelsim.microbench.registry import BENCHMARKS

        return {name: {f.quantity: f.value for f in card.figures
                       if f.quantity in BENCHMARKS and f.unit == BENCHMARKS[f.quantity].unit}
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
