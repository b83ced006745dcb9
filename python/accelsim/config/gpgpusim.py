"""Import Accel-Sim / GPGPU-Sim configs (``gpgpusim.config`` + ``trace.config``)
into an accelsim :class:`Config`. Every option is either mapped or reported in
``config.unmodelled`` with the reason; none is dropped silently."""
from __future__ import annotations

from dataclasses import dataclass

from accelsim.config.config import Config
from accelsim.config.gpgpusim_cache import parse_cache
from accelsim.config.gpgpusim_parse import Option, read_options
from accelsim.config.gpgpusim_units import exec_units
from accelsim.config.gpgpusim_table import DIRECT, IGNORED, SPECIAL, TIMING_KEYS
from accelsim.errors import ConfigError


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
    entries: dict = {}
    origin: dict[str, Option] = {}  # parameter -> the option that set it
    unmodelled: list[Unmodelled] = []
    for opt in options.values():
        before = dict(entries)
        _map_option(opt, options, entries, unmodelled)
        origin.update({k: opt for k, v in entries.items() if k not in before or before[k] != v})
    entries["exec_units"] = exec_units(options, unmodelled_sink(unmodelled))
    _derive_l2_size(options, entries)
    if "gpgpu_cache:dl2" in options:
        origin["l2_size"] = options["gpgpu_cache:dl2"]
    _derive_dram_type(options, entries)
    # The file describes the whole memory system (crossbar, L2 slices, DRAM
    # timing), which only the detailed model uses.
    entries.setdefault("memory_model", "detailed")
    _check_as_options(entries, origin)
    label = name or _name_from(paths[0])
    return Config.from_entries(entries, label, str(paths[0]), unmodelled=unmodelled)


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


def _check_as_options(entries: dict, origin: dict) -> None:
    """Validate the converted entries; an error names the option (file, line,
    ``-option value``) that produced the bad parameter, not the parameter alone."""
    try:
        Config.from_entries(entries)
    except ConfigError as exc:
        source = origin.get(exc.key or "")
        if source is None:
            raise
        raise source.error(str(exc)) from None
