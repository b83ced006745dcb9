"""GPU configurations: declared parameters, unit-carrying values, bundled
configs, and the importer for Accel-Sim / GPGPU-Sim config files (loaded on
first use: a run of a bundled config never needs it)."""
from importlib import import_module

from accelsim.config.config import Config
from accelsim.config.files import list_configs, load_config
from accelsim.config.params import ParamSpec, param_specs

__all__ = ["Config", "ParamSpec", "Unmodelled", "import_gpgpusim_config", "list_configs",
           "load_config", "param_specs"]


def __getattr__(name):
    if name in ("Unmodelled", "import_gpgpusim_config"):
        value = getattr(import_module("accelsim.config.gpgpusim"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'accelsim.config' has no attribute {name!r}")
