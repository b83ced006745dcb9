"""What ``fit`` checks before any work (generating twins and simulating them
takes from seconds to hours): the search grid, the engine and its workers,
the cycle budget, and how much of the suite the hardware profile measured."""
from __future__ import annotations

import warnings

from accelsim import _args
from accelsim.errors import AccelsimWarning, ConfigError
from accelsim.tune.profile import HwProfile, ProfileFormatError
from accelsim.tune.search import resolve_grid
from accelsim.microbench.suite import SUITE

# Measurements the tuner reads besides the twinned ones: the launch latency is
# set directly (no twin simulates it).
_DIRECT = ("kernel_lat",)


def used_measurements() -> list[str]:
    """The suite's benchmarks whose hardware figure sets or fits a parameter."""
    return [n for n in SUITE if SUITE[n].has_twin or n in _DIRECT]


def check_arguments(base_cfg, search, engine, workers, max_cycles) -> None:
    """Every argument of ``fit`` that is not a file, as a ConfigError naming it."""
    from accelsim.sweep.engines import make_engine
    from accelsim.sweep.points import make_points

    _args.max_cycles(max_cycles)
    if search is not None and not isinstance(search, dict):
        raise ConfigError(f"search must be a dict parameter -> values (or None), got "
                          f"{type(search).__name__}", key="search")
    if search:
        grid = resolve_grid(base_cfg, search)
        make_points(base_cfg, grid, None)  # every value checked as a config value
    make_engine(engine, workers)


def check_coverage(hw: HwProfile, where: str) -> None:
    """Refuse a profile that measured nothing the tuner uses; warn, naming what
    is missing, when it measured only some of it (the parameters those
    benchmarks would set keep the base config's values)."""
    used = used_measurements()
    present = [n for n in used if hw.value(n) is not None]
    if not present:
        raise ProfileFormatError(f"{where}: none of the {len(used)} measurements the tuner uses "
                                 f"is in this profile (it has: "
                                 f"{', '.join(sorted(hw.measurements)) or 'none'}); nothing to "
                                 "tune to", path=where)
    missing = [n for n in used if n not in present]
    if missing:
        warnings.warn(f"{where}: {len(present)} of the {len(used)} measurements the tuner uses are "
                      f"in this profile; the parameters the other {len(missing)} would set keep "
                      f"the base config's values (missing: {', '.join(missing)})",
                      AccelsimWarning, stacklevel=3)
