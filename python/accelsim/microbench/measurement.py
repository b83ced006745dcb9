"""What one microbenchmark run reports."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Measurement:
    """``value`` in the benchmark's own ``unit``; ``hw_value`` is the real
    GPU's result for the same benchmark when one is known for the config."""

    name: str
    value: float
    unit: str
    hw_value: float | None = None
    config: str = ""
    # The two simulated points behind ``value`` (see ``method``), kept so a
    # surprising number can be checked by hand.
    detail: dict | None = None

    @property
    def error_pct(self) -> float | None:
        """Signed error against hardware in percent (positive = simulator high)."""
        if self.hw_value is None or self.hw_value == 0:
            return None
        return 100.0 * (self.value - self.hw_value) / self.hw_value

    def to_dict(self) -> dict:
        out = asdict(self)
        out["error_pct"] = self.error_pct
        return out

    def __str__(self) -> str:
        text = f"{self.name}: {self.value:.1f} {self.unit}"
        if self.hw_value is not None:
            text += f" (hardware {self.hw_value:g}, error {self.error_pct:+.1f}%)"
        return text
