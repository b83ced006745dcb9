"""From a real GPU's microbenchmarks to a tuned config (docs/tuning.md).

    from accelsim import tune
    hw = tune.collect()                                   # on a machine with a GPU
    hw = tune.import_reference("output.txt")              # or the reference suite's output
    config, report = tune.fit(hw, "TITANV", base="QV100") # spec: a bundled name or a YAML path
    tune.write_config(config, "MyGPU.yaml", base_name="QV100")
    report.benchmarks; report.search; report.to_html("report.html")
"""
from accelsim.tune.compile import CompileError, to_ptx
from accelsim.tune.driver import NoGpuError, collect
from accelsim.tune.fit import GENERIC, TOLERANCE, fit, generic_base, write_config
from accelsim.tune.profile import SCHEMA, HwProfile, Measured, ProfileFormatError, load_profile
from accelsim.tune.reference import import_reference
from accelsim.tune.report import TuneReport
from accelsim.tune.search import DEFAULT_GRID
from accelsim.tune.spec import Spec, load_spec
# The registry both halves share (accelsim.microbench.suite), under the names tune exports.
from accelsim.microbench.suite import SUITE
from accelsim.microbench.suite import Microbenchmark as HwBench
from accelsim.microbench.suite import hardware_names as names

__all__ = ["CompileError", "DEFAULT_GRID", "GENERIC", "HwBench", "HwProfile", "Measured",
           "NoGpuError", "ProfileFormatError", "SCHEMA", "SUITE", "Spec", "TOLERANCE", "TuneReport",
           "collect", "fit", "generic_base", "import_reference", "load_profile", "load_spec", "names",
           "to_ptx", "write_config"]
