"""Parameter sweeps: ``accelsim.sweep(workloads, config, grid={...})``.

This package is also callable: ``accelsim.sweep(...)`` is
``accelsim.sweep.sweep(...)``, whichever of the two Python's import system
left bound to the name ``accelsim.sweep`` (importing a submodule binds the
package there). ``from accelsim.sweep import sweep, load_sweep`` works too.

Files: points.py (grid -> checked points), workloads.py, storage.py (the
results directory), tasks.py (one run), engines.py + pool.py + worker.py
(where runs execute), progress.py, runner.py (``sweep``/``load_sweep``),
spec.py (the CLI's YAML spec).
"""
from __future__ import annotations

import sys
import types

__all__ = ["load_sweep", "sweep"]


from accelsim.sweep.runner import load_sweep, sweep  # noqa: E402 - after the docstring


class _CallableModule(types.ModuleType):
    """``accelsim.sweep(...)`` calls ``accelsim.sweep.sweep(...)``."""

    def __call__(self, *args, **options):
        return sweep(*args, **options)


sys.modules[__name__].__class__ = _CallableModule
