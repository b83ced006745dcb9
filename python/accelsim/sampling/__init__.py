"""Sampled simulation of large workloads (docs/sampling.md).

``KernelSampling``: group a workload's launches by name, launch shape and a
cheap profile, simulate a few of each group, project the others with error
bounds. ``IntraKernelSampling``: simulate a long kernel until its CTA waves
are steady, project the rest. Pass either (or both, in a list) as
``Simulator.run(..., sample=...)``. Split runs (``engine=``) cut a
workload into units run on the sweep's engines (``sampling.units``).
Importing this package registers both with ``Simulator.run``
(``accelsim.run_modes``).
"""
from accelsim.run_modes import IntraKernelSampling, KernelSampling, register_runner


def _run_sampled(*args, **kwargs):
    from accelsim.sampling.kernel_sampling import run_sampled

    return run_sampled(*args, **kwargs)


def _run_split(*args, **kwargs):
    from accelsim.sampling.units.runner import run_split

    return run_split(*args, **kwargs)


register_runner("kernel_sampling", _run_sampled)
register_runner("split", _run_split)

__all__ = ["IntraKernelSampling", "KernelSampling"]
