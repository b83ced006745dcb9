"""Sampled simulation of large workloads (docs/sampling.md).

``KernelSampling``: group a workload's launches by name, launch shape and a
cheap profile, simulate a few of each group, project the others with error
bounds. ``IntraKernelSampling``: simulate a long kernel until its CTA waves
are steady, project the rest. Pass either (or both, in a list) as
``Simulator.run(..., sample=...)``.
"""
from accelsim.sampling.options import IntraKernelSampling, KernelSampling

__all__ = ["IntraKernelSampling", "KernelSampling"]
