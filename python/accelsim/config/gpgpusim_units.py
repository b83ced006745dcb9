"""Execution units from GPGPU-Sim's unit counts, trace-mode latencies
(``-trace_opcode_latency_initiation_<class> latency,initiation``) and
``-specialized_unit_N enabled,units,max_latency,id_oc,oc_ex,NAME``."""
from __future__ import annotations

from accelsim.config.gpgpusim_parse import Option

# specialized unit NAME -> the ISA unit class it executes
_SPECIAL_CLASSES = {"BRA": "branch", "TEX": "tex", "TENSOR": "tensor"}


def _latency(options: dict, suffix: str, default=(4, 2)) -> tuple[int, int]:
    opt = options.get(f"trace_opcode_latency_initiation_{suffix}")
    if opt is None:
        return default
    values = opt.ints()
    if len(values) != 2:
        raise opt.error("expected <latency>,<initiation>")
    return values[0], values[1]


def _count(options: dict, name: str, default: int = 0) -> int:
    opt = options.get(name)
    return opt.int() if opt is not None else default


def _unit(name: str, count: int, lat_init: tuple[int, int], classes: list[str]) -> dict:
    latency, initiation = lat_init
    return {"name": name, "units_per_sm": count, "latency": max(latency, 1),
            "initiation": max(initiation, 1), "classes": classes}


def exec_units(options: dict, add_unmodelled) -> list[dict]:
    specials = _specialized(options, add_unmodelled)
    special_classes = {c for u in specials for c in u["classes"]}
    units = []
    sp_classes = ["sp", "alu"]
    if _count(options, "gpgpu_num_int_units") > 0:
        units.append(_unit("int", _count(options, "gpgpu_num_int_units"),
                           _latency(options, "int"), ["int"]))
    else:
        sp_classes.append("int")  # GPGPU-Sim runs integer ops on SP without INT units
    units.insert(0, _unit("sp", _count(options, "gpgpu_num_sp_units", 1),
                          _latency(options, "sp"), sp_classes))
    sfu_classes = ["sfu"]
    if _count(options, "gpgpu_num_dp_units") > 0:
        units.append(_unit("dp", _count(options, "gpgpu_num_dp_units"), _latency(options, "dp"),
                           ["dp"]))
    else:
        sfu_classes.append("dp")  # and FP64 on the SFU without DP units
    units.append(_unit("sfu", _count(options, "gpgpu_num_sfu_units", 1),
                       _latency(options, "sfu"), sfu_classes))
    tensor_opt = options.get("gpgpu_num_tensor_core_units")
    if tensor_opt is not None and tensor_opt.int() > 0:
        if "tensor" in special_classes:
            add_unmodelled(tensor_opt, "superseded by the specialized TENSOR unit, which "
                                       "executes tensor instructions in trace mode")
        else:
            units.append(_unit("tensor", tensor_opt.int(), _latency(options, "tensor"),
                               ["tensor"]))
    return units + specials


def _specialized(options: dict, add_unmodelled) -> list[dict]:
    units = []
    # Ordered by number; keyed by the option as written ("specialized_unit_03"
    # is unit 3), and only ASCII digits count ("²".isdigit() is true).
    numbered = sorted((int(k.rsplit("_", 1)[1]), k) for k in options
                      if k.startswith("specialized_unit_") and _ascii_number(k.rsplit("_", 1)[1]))
    for key in options:
        if key.startswith("specialized_unit_") and not _ascii_number(key.rsplit("_", 1)[1]):
            add_unmodelled(options[key], "not a specialized unit: the suffix is not a number")
    for n, key in numbered:
        opt: Option = options[key]
        fields = [f.strip() for f in opt.value.split(",")]
        if len(fields) != 6:
            raise opt.error("expected enabled,units,max_latency,id_oc,oc_ex,NAME")
        if opt.int(fields[0]) == 0:
            add_unmodelled(opt, "unit disabled in the source config")
            continue
        name = fields[5]
        unit_class = _SPECIAL_CLASSES.get(name.upper(), name.lower())
        units.append(_unit(name.lower(), opt.int(fields[1]),
                           _latency(options, f"spec_op_{n}", (opt.int(fields[2]), 1)),
                           [unit_class]))
    return units


def _ascii_number(text: str) -> bool:
    return text.isascii() and text.isdigit()
