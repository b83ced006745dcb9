"""One workload across processes or a Dask cluster: ``Simulator.run(...,
engine=...)`` cuts it into units of consecutive commands (``split``), runs
them on the sweep engines (``runner``, ``task``) and merges them into one
result in kernel order (``merge``). See docs/sampling.md."""
