"""``run`` / ``run_all``: simulate microbenchmarks on a GPU config."""
from __future__ import annotations

from accelsim.microbench.hardware import hardware_value
from accelsim.microbench.hwdef import HardwareDef
from accelsim.microbench.measurement import Measurement
from accelsim.microbench.method import measure
from accelsim.microbench.suite import get, names


def _config(config):
    from accelsim.config import Config, load_config

    return config if isinstance(config, Config) else load_config(config)


def run(name: str, config="TITANV", *, reps: int | None = None, trace_dir=None,
        **options) -> Measurement:
    """Simulates microbenchmark ``name`` on ``config`` (a Config or a config
    name/path). ``reps`` sets the timed length (the second run has twice
    as many); ``options`` override the generator's sizes (e.g.
    ``footprint``, ``threads``, ``unroll``); ``trace_dir`` keeps the traces."""
    from accelsim.sim import Simulator

    cfg = _config(config)
    bench = get(name)
    value, detail = measure(bench, Simulator(cfg), HardwareDef.from_config(cfg), reps,
                              trace_dir, **options)
    return Measurement(name=name, value=value, unit=bench.unit,
                       hw_value=hardware_value(cfg.name, name), config=cfg.name, detail=detail)


def run_all(config="TITANV", only: list[str] | None = None) -> list[Measurement]:
    """Every registered benchmark (or those in ``only``), in registry order."""
    cfg = _config(config)
    return [run(n, cfg) for n in (only or names())]
