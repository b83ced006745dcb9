"""GPU configurations: declared parameters, unit-carrying values, bundled
configs, and the importer for Accel-Sim / GPGPU-Sim config files."""
from accelsim.config.config import Config
from accelsim.config.files import list_configs, load_config
from accelsim.config.gpgpusim import Unmodelled, import_gpgpusim_config
from accelsim.config.params import ParamSpec, param_specs

__all__ = ["Config", "ParamSpec", "Unmodelled", "import_gpgpusim_config", "list_configs",
           "load_config", "param_specs"]
