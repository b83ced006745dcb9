"""Import Accel-Sim / GPGPU-Sim configs (``gpgpusim.config`` + ``trace.config``)
into an accelsim :class:`Config`. Every option is either mapped or reported in
``config.unmodelled`` with the reason; none is dropped silently."""
from __future__ import annotations

from dataclasses import dataclass

from accelsim.config.config import Config
from accelsim.config.gpgpusim_cache import parse_cache
from accelsim.config.gpgpusim_defaults import ALIASES, DEFAULTS, NOT_APPLIED
from accelsim.config.gpgpusim_parse import Option, read_options
from accelsim.config.gpgpusim_units import exec_units
from accelsim.config.gpgpusim_table import DIRECT, IGNORED, SPECIAL, TIMING_KEYS
from accelsim.errors import ConfigError


#: The `path` of an option that the importer took from GPGPU-Sim's defaults.
GPGPUSIM_DEFAULT = "<GPGPU-Sim default>"


@dataclass(frozen=True)
class Unmodelled:
    option: str
    value: str
    reason: str
    path: str
    line: int


def import_gpgpusim_config(*paths, name: str | None = None) -> Config:
    """Read one or more option files (later files and later lines win) and
    return the equivalent Config; unmodelled options are in ``.unmodelled``."""
    if not paths:
        raise TypeError("import_gpgpusim_config needs at least one file")
    options: dict[str, Option] = {}
    for path in paths:
        for opt in _options_of(path):
            options[opt.name] = opt
    defaults = _apply_gpgpusim_defaults(options)
    entries = _Entries()
    unmodelled: list[Unmodelled] = []
    for opt in options.values():
        entries.setter = opt
        _map_option(opt, options, entries, unmodelled)
    entries.setter = None  # what follows is derived from several options
    origin = entries.origin  # parameter -> the option that set it
    entries["exec_units"] = exec_units(options, unmodelled_sink(unmodelled))
    _derive_l2_size(options, entries)
    if "gpgpu_cache:dl2" in options:
        origin["l2_size"] = options["gpgpu_cache:dl2"]
    _derive_dram_type(options, entries)
    _derive_sm_version(options, entries)
    # The file describes the whole memory system (crossbar, L2 slices, DRAM
    # timing), which only the detailed model uses.
    entries.setdefault("memory_model", "detailed")
    label = name or _name_from(paths[0])
    try:  # an error names the option (file, line, -option value) behind the bad parameter
        return Config.from_entries(
            dict(entries), label, str(paths[0]), unmodelled=unmodelled,
            # GPGPU-Sim defaults taken for options the files do not set, as (option, value),
            # and absent options whose GPGPU-Sim default is not taken, as (option, reason).
            defaults_applied=defaults,
            defaults_not_applied=[(k, why) for k, why in NOT_APPLIED.items() if k not in options])
    except ConfigError as exc:
        source = origin.get(exc.key or "")
        if source is None:
            raise
        raise source.error(str(exc)) from None


class _Entries(dict):
    """The converted parameters, remembering which option last changed each one
    (``origin``), so that a validation error can name that option. Option
    handlers write with ``[]=`` and ``update`` only."""

    def __init__(self) -> None:
        super().__init__()
        self.origin: dict[str, Option] = {}
        self.setter: Option | None = None

    def __setitem__(self, key, value) -> None:
        if self.setter is not None and (key not in self or self[key] != value):
            self.origin[key] = self.setter
        super().__setitem__(key, value)

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value


def _apply_gpgpusim_defaults(options: dict) -> list[tuple[str, str]]:
    """Absent options take GPGPU-Sim's default (gpgpusim_defaults.py)."""
    applied = []
    for key, value in DEFAULTS.items():
        if key not in options and not any(a in options for a in ALIASES.get(key, ())):
            options[key] = Option(key, value, GPGPUSIM_DEFAULT, 0)
            applied.append((key, value))
    return applied


def unmodelled_sink(sink: list):
    def add(opt: Option, reason: str):
        sink.append(Unmodelled(opt.name, opt.value, reason, opt.path, opt.line))
    return add


def _map_option(opt: Option, options: dict, entries: dict, unmodelled: list) -> None:
    add = unmodelled_sink(unmodelled)
    if opt.name in DIRECT:
        key, convert = DIRECT[opt.name]
        entries[key] = convert(opt)
    elif opt.name in SPECIAL:
        reason = SPECIAL[opt.name](opt, options, entries)
        if reason:
            add(opt, reason)
    elif opt.name == "gpgpu_dram_timing_opt":
        _dram_timing(opt, entries)
    elif _is_unit_option(opt.name):
        pass  # consumed by exec_units()
    elif opt.name in IGNORED:
        add(opt, IGNORED[opt.name])
    else:
        add(opt, "not known to accelsim")


def _is_unit_option(name: str) -> bool:
    return name.startswith(("specialized_unit_", "trace_opcode_latency_initiation_")) or name in (
        "gpgpu_num_sp_units", "gpgpu_num_sfu_units", "gpgpu_num_dp_units",
        "gpgpu_num_int_units", "gpgpu_num_tensor_core_units")


def _dram_timing(opt: Option, entries: dict) -> None:
    for item in opt.value.split(":"):
        if not item:
            continue
        key, _, value = item.partition("=")
        if key not in TIMING_KEYS:
            raise opt.error(f"unknown DRAM timing field {key!r} (known: {', '.join(TIMING_KEYS)})")
        entries[TIMING_KEYS[key]] = opt.int(value)


def _derive_l2_size(options: dict, entries: dict) -> None:
    """GPGPU-Sim sizes L2 per sub-partition; ours is the whole-GPU total."""
    if "gpgpu_cache:dl2" not in options:
        return
    spec = parse_cache(options["gpgpu_cache:dl2"])
    parts = entries.get("memory_partitions", 1)
    subs = entries.get("l2_slices_per_partition", 1)
    entries["l2_size"] = spec.size * parts * subs


def _derive_dram_type(options: dict, entries: dict) -> None:
    """GPGPU-Sim names no DRAM type: HBM is recognised by its dual command bus,
    GDDR6 by a command clock of 3 GHz and more, GDDR5 otherwise."""
    if entries.get("dram_dual_bus"):
        entries["dram_type"] = "hbm2"
    elif entries.get("dram_clock", 0) >= 3000:
        entries["dram_type"] = "gddr6"
    else:
        entries["dram_type"] = "gddr5"


def _derive_sm_version(options: dict, entries: dict) -> None:
    """The generation (ISA table `config check` uses) from the capability the
    config makes the runtime report."""
    forced = options.get("gpgpu_ptx_force_max_capability")
    major, minor = (options.get(f"gpgpu_compute_capability_{k}") for k in ("major", "minor"))
    if forced is not None and forced.int() > 0:
        entries["sm_version"] = forced.int()
    elif major is not None:
        entries["sm_version"] = major.int() * 10 + (minor.int() if minor is not None else 0)


def _name_from(path) -> str:
    from pathlib import Path

    parent = Path(path).resolve().parent.name
    return parent or Path(path).stem


def _options_of(path) -> list[Option]:
    options = read_options(path)
    if not options:  # else an empty file would import as the default GPU
        raise ConfigError(f"{path}: no -option in this file (is it a gpgpusim.config?)",
                          path=str(path))
    return options

