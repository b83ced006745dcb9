"""``fit(hw, spec, base=...)``: from a hardware profile and a public spec to
a tuned config and a report.

1. spec facts set the structure (SM count, clocks, memory channels, sizes);
2. measurements set what they measure directly (latencies, issue intervals,
   DRAM timing, L2 banks, launch latency);
3. calibration loops fit the parameters that compose a measured figure by
   simulating its twin (e.g. the L2 hit latency is the L1 pipeline, the
   crossbar and the L2 ROP latency: the first two are known, the ROP
   latency is fitted);
4. the search picks what no microbenchmark measures (warp and DRAM
   scheduler, L2 interleave, L2 hash, ...) on the bandwidth twins;
5. the bandwidth fits are redone on the chosen combination, and every twin
   is simulated on the base and on the tuned config for the report.
Every value written records its source (``provenance``)."""
from __future__ import annotations

from pathlib import Path

from accelsim.config import Config, load_config
from accelsim.errors import ConfigError
from accelsim.tune import params
from accelsim.tune.calibrate import calibrate
from accelsim.tune.checks import check_arguments, check_coverage
from accelsim.tune.profile import HwProfile, load_profile
from accelsim.tune.report import TuneReport
from accelsim.tune.search import DEFAULT_GRID, grid_size, resolve_grid, run_search
from accelsim.tune.spec import Spec, load_spec
from accelsim.microbench.suite import LATENCY, SUITE
from accelsim.tune.twins import TwinSet

TOLERANCE = {"latency": 3.0, "rate": 5.0}   # % (the tuner's acceptance bound)

# (parameter, twin) in order: a later figure contains the earlier pieces.
CALIBRATIONS_DETAILED = [
    ("l1d_hit_latency", "l1_lat"), ("shmem_latency", "shared_lat"),
    ("l2_rop_latency", "l2_lat"), ("dram_fixed_latency", "dram_lat"),
    ("exec.sp.latency", "fp32_lat"), ("exec.int.latency", "int32_lat"),
    ("exec.dp.latency", "fp64_lat"), ("exec.sfu.latency", "sfu_lat"),
    ("sass_latency_half", "fp16_lat"), ("l1d_address_rate", "l1_bw_32"),
    ("icnt_flit_size", "l2_bw"),
]
CALIBRATIONS_SIMPLE = [
    ("l1d_hit_latency", "l1_lat"), ("shmem_latency", "shared_lat"),
    ("l2_hit_latency", "l2_lat"), ("dram_latency", "dram_lat"),
    ("exec.sp.latency", "fp32_lat"), ("exec.int.latency", "int32_lat"),
    ("exec.dp.latency", "fp64_lat"), ("exec.sfu.latency", "sfu_lat"),
    ("sass_latency_half", "fp16_lat"), ("l1d_address_rate", "l1_bw_32"),
    ("l2_bandwidth", "l2_bw"), ("dram_bandwidth", "dram_bw"),
]
# Not fitted: l1d_bandwidth (the L1 data port always moves a request when it
# is idle, so a port narrower than a line does not limit l1_bw_*; the L1
# bandwidths are set by the banks and the LD/ST pipeline). l1_bw_32 fits the
# address stage's rate instead: a 32-bit warp load is one line, one data-port
# cycle, so only the addresses limit it.
BANDWIDTH_FITS = ("icnt_flit_size", "l2_bandwidth", "dram_bandwidth")
SEARCH_BENCHMARKS = ("l1_bw_64", "l1_bw_128", "shared_bw", "l2_bw", "dram_bw")

# measurement -> (unit, flops per instruction) for issue intervals
_UNITS = {"sp": ("fp32_lat", "fp32_flops", 2), "int": ("int32_lat", "int32_flops", 2),
          "dp": ("fp64_lat", "fp64_flops", 2), "sfu": ("sfu_lat", "sfu_throughput", 1)}

# What "reset to generic values" means (docs/tuning.md): a latency/bandwidth
# guess any GPU could have, so a tuned value cannot be left over from the base.
GENERIC = {"l1d_hit_latency": 20, "shmem_latency": 20, "l2_hit_latency": 200, "dram_latency": 300,
           "l2_rop_latency": 100, "dram_fixed_latency": 100, "icnt_flit_size": 32,
           "l2_interleave": 256, "kernel_launch_latency": 5000,
           "l2_bandwidth": 1024, "dram_bandwidth": 512,
           "exec.sp.latency": 2, "exec.sp.initiation": 1, "exec.int.latency": 2,
           "exec.int.initiation": 1, "exec.dp.latency": 4, "exec.dp.initiation": 1,
           "exec.sfu.latency": 10, "exec.sfu.initiation": 1,
           "sass_latency_half": 0, "l1d_address_rate": 32}


def generic_base(base="QV100") -> Config:
    """``base`` with its latency and bandwidth parameters reset to ``GENERIC``."""
    cfg = load_config(base)
    return Config.from_entries({}, f"{cfg.name}-generic", cfg.source,
                               base=params.apply(cfg, GENERIC))


def fit(hw, spec, base="QV100", *, search=None, tolerance=None, reps=None, engine="process",
        workers=None, max_cycles=None, calibrations=None, progress=None):
    """Tunes ``base`` (a config name, path or Config) to the GPU of ``hw`` (a
    HwProfile, a profile JSON, or the reference suite's output file) and
    ``spec`` (a Spec, a spec YAML, or a bundled spec name).

    search: parameter -> values (None: from the declaration), default
        ``DEFAULT_GRID``; ``{}`` skips the search. engine/workers: the sweep
        engine that runs it. reps: twin lengths by benchmark (shorter = faster,
        noisier). max_cycles: a cycle budget for every simulation.
    Returns (Config, TuneReport)."""
    where = _where(hw)
    hw, spec = _profile(hw), spec if isinstance(spec, Spec) else load_spec(spec)
    base_cfg = load_config(base)
    check_arguments(base_cfg, search, engine, workers, max_cycles)
    check_coverage(hw, where)
    tol = {**TOLERANCE, **(tolerance or {})}
    say = progress or (lambda text: None)
    prov: dict[str, str] = {}

    cfg = _from_spec(base_cfg, spec, hw, prov)
    cfg = _from_measurements(cfg, hw, prov)
    names = [n for n in SUITE if SUITE[n].has_twin and hw.value(n) is not None]
    say(f"generating {len(names)} simulated twins")
    twins = TwinSet(cfg, names, reps=reps)
    try:
        model = cfg["memory_model"]
        plan = calibrations or (CALIBRATIONS_DETAILED if model == "detailed" else CALIBRATIONS_SIMPLE)
        plan = [(k, b) for k, b in plan if b in names and not unmodelled(b, hw)]
        fits = {}
        for key, bench in plan:
            say(f"calibrating {key} on {bench}")
            cfg, fits[key] = _calibrate(cfg, twins, key, bench, hw, tol, max_cycles)
        scores = None
        grid = resolve_grid(cfg, DEFAULT_GRID if search is None else search)
        targets = {b: hw.value(b) for b in SEARCH_BENCHMARKS if b in names and not unmodelled(b, hw)}
        if grid and targets:
            say(f"searching {grid_size(grid)} combinations on {', '.join(targets)}")
            scores, best = run_search(cfg, twins, targets, grid, engine=engine, workers=workers,
                                      max_cycles=max_cycles, out=twins.folder / "search",
                                      progress=None if progress else False)
            cfg = params.apply(cfg, best)
            why = (f"search: best of {len(scores)} combinations of {', '.join(grid)} on "
                   f"{', '.join(targets)} (mean |error| {scores.loc[0, 'mean_abs_err_pct']:.2f}%)")
            prov.update({k: why for k in best})
            for key, bench in plan:
                if key in BANDWIDTH_FITS:
                    say(f"re-fitting {key} on {bench} after the search")
                    cfg, fits[key] = _calibrate(cfg, twins, key, bench, hw, tol, max_cycles)
        prov.update({k: f.describe() for k, f in fits.items()})
        say("simulating every twin on the base and the tuned config")
        before = twins.simulate(base_cfg, max_cycles=max_cycles)
        after = twins.simulate(cfg, max_cycles=max_cycles)
    finally:
        twins.close()
    cfg = Config.from_entries({}, spec.name, None, base=cfg, provenance=prov)
    report = _report(cfg, base_cfg, hw, names, before, after, fits, scores, prov, tol)
    return cfg, report


def _where(hw) -> str:
    """How a profile is named in messages: its file, or the HwProfile object."""
    return "the hardware profile" if isinstance(hw, HwProfile) else str(hw)


def _profile(hw) -> HwProfile:
    if isinstance(hw, HwProfile):
        return hw
    path = Path(hw)
    if path.suffix == ".json":
        return load_profile(path)
    from accelsim.tune.reference import import_reference

    return import_reference(path)


def _set(cfg, values: dict, why: dict, prov: dict):
    prov.update(why)
    return params.apply(cfg, values)


def _from_spec(cfg, spec: Spec, hw: HwProfile, prov: dict):
    values, why = {}, {}
    for key, (value, cite) in spec.entries().items():
        values[key], why[key] = value, cite
    f = spec.facts
    if "memory_bus_width" in f and "memory_channel_width" in f:
        values["memory_partitions"] = f["memory_bus_width"] // f["memory_channel_width"]
        why["memory_partitions"] = (f"{spec.cite('memory_bus_width')} / "
                                    f"{spec.cite('memory_channel_width')}")
    if {"memory_bus_width", "memory_clock", "base_clock"} <= set(f):
        values["dram_bandwidth"] = round(f["memory_bus_width"] / 8 * 2 * f["memory_clock"] / f["base_clock"])
        why["dram_bandwidth"] = ("bus width / 8 x 2 (DDR) x memory clock / base clock, from "
                                 f"{spec.cite('memory_bus_width')}, {spec.cite('memory_clock')}")
    banks = hw.device.get("l2_banks")
    parts = values.get("memory_partitions", cfg["memory_partitions"])
    if banks:
        values["l2_slices_per_partition"] = max(1, banks // parts)
        values["l2_bandwidth"] = banks * cfg["l2_sector"]
        why["l2_slices_per_partition"] = f"hw device l2_banks = {banks} / {parts} partitions"
        why["l2_bandwidth"] = f"hw device l2_banks = {banks} x {cfg['l2_sector']} B sectors per clock"
    timing = hw.device.get("dram_timing") or {}
    names = {"nbk": "dram_banks", "nbkgrp": "dram_bank_groups", **{
        t: f"dram_t{t}" for t in ("CCD", "CCDL", "RRD", "RCD", "RAS", "RP", "RC", "CL", "WL", "CDLR",
                                  "WR", "RTPL")}}
    for t, key in names.items():
        if t in timing:
            values[key], why[key] = timing[t], f"hw device dram_timing {t}={timing[t]}"
    return _set(cfg, values, why, prov)


def _cite(hw: HwProfile, name: str) -> str:
    m = hw.measurements[name]
    return f"hw {name} = {m.value:g} {m.unit} ({m.origin})" if m.origin else f"hw {name} = {m.value:g} {m.unit}"


def _from_measurements(cfg, hw: HwProfile, prov: dict):
    values, why = {}, {}
    direct = {"l1d_hit_latency": "l1_lat", "shmem_latency": "shared_lat", "l2_hit_latency": "l2_lat",
              "dram_latency": "dram_lat", "kernel_launch_latency": "kernel_lat"}
    for key, name in direct.items():
        value = hw.value(name)
        if value is not None:
            values[key], why[key] = round(value), _cite(hw, name)
    for unit, (lat, thr, flops) in _UNITS.items():
        spec = next((u for u in cfg["exec_units"] if u["name"] == unit), None)
        if spec is None:
            continue
        latency, throughput = hw.value(lat), hw.value(thr)
        if latency is not None:
            values[f"exec.{unit}.latency"] = round(latency)
            why[f"exec.{unit}.latency"] = _cite(hw, lat)
        if throughput:
            per_clock = spec["units_per_sm"] * spec["lanes"] * flops
            values[f"exec.{unit}.initiation"] = max(1, round(per_clock / throughput))
            why[f"exec.{unit}.initiation"] = (f"{spec['units_per_sm']} units x {spec['lanes']} lanes x "
                                              f"{flops} / {_cite(hw, thr)}")
    return _set(cfg, values, why, prov)


def unmodelled(name: str, hw) -> str:
    """Why benchmark ``name`` is left out of the fit and the tolerance check
    ('' when it is not): the model lacks what it measures, or the profile's
    figure came from a reference program that measures something else."""
    bench = SUITE[name]
    if bench.modelled:
        return bench.modelled
    ref, m = bench.reference, hw.measurements.get(name)
    if ref and ref.differs and m is not None and m.origin.startswith(ref.program + ":"):
        return ref.differs
    return ""


def _calibrate(cfg, twins, key, bench, hw, tol, max_cycles):
    kind = "latency" if SUITE[bench].kind == LATENCY else "rate"
    return calibrate(cfg, twins, key, bench, hw.value(bench), tol[kind], max_cycles=max_cycles)


def _report(cfg, base_cfg, hw, names, before, after, fits, scores, prov, tol) -> TuneReport:
    import pandas as pd

    rows = []
    for n in names:
        b, h, why = SUITE[n], hw.value(n), unmodelled(n, hw)
        kind = "latency" if b.kind == LATENCY else "rate"
        err_b, err_a = 100.0 * (before[n] - h) / h, 100.0 * (after[n] - h) / h
        rows.append({"benchmark": n, "unit": b.unit, "hw": h, "before": before[n], "after": after[n],
                     "error_before_pct": err_b, "error_after_pct": err_a, "tolerance_pct": tol[kind],
                     "within": abs(err_a) <= tol[kind], "modelled": not why, "note": why})
    fit_rows = [{"parameter": k, "benchmark": f.bench, "value": f.value, "simulated": f.simulated,
                 "hw": f.target, "error_pct": f.error_pct, "steps": len(f.steps),
                 "tried": ", ".join(f"{v}->{s:.4g}" for v, s in f.steps)} for k, f in fits.items()]
    prov_rows = [{"parameter": k, "value": params.get(cfg, k), "source": v} for k, v in prov.items()]
    return TuneReport(pd.DataFrame(rows), pd.DataFrame(fit_rows), scores, pd.DataFrame(prov_rows),
                      cfg.name, base_cfg.name)


def write_config(config, path, *, description: str = "", base_name: str = "") -> Path:
    """The tuned config as YAML, every value with its source in a comment
    (tuner provenance, or the base config it was left at)."""
    from accelsim.config.files import _quote
    from accelsim.config.params import param_specs
    from accelsim.config.units import format_value

    prov = config.provenance
    values = config.to_dict()
    lines = ["# Written by accelsim tune config. Each comment says where the value came from:",
             "# 'spec ...' (the GPU's public spec), 'hw ...' (a measurement), 'fit: ...'",
             "# (a calibration loop simulating that microbenchmark), 'search: ...' (the search),",
             f"# or 'base {base_name}' (left as the base config had it).",
             f"name: {config.name}"]
    if description:
        lines.append(f"description: {_quote(description)}")
    for name, spec in param_specs().items():
        text = f"{name}: {_quote(format_value(spec.kind, values[name]))}"
        lines.append(f"{text:<40}  # {prov.get(name, f'base {base_name}')}")
    lines.append("exec_units:")
    for u in values["exec_units"]:
        unit = u["name"]
        src = "; ".join(f"{f}: {prov[f'exec.{unit}.{f}']}" for f in ("latency", "initiation")
                        if f"exec.{unit}.{f}" in prov) or f"base {base_name}"
        classes = ", ".join(u["classes"])
        lines.append(f"  - {{name: {u['name']}, units_per_sm: {u['units_per_sm']}, lanes: {u['lanes']}, "
                     f"latency: {u['latency']} cycles, initiation: {u['initiation']} cycles, "
                     f"classes: [{classes}]}}  # {src}")
    if values["opcode_units"]:
        import yaml

        lines.append(yaml.safe_dump({"opcode_units": values["opcode_units"]}, sort_keys=False).rstrip())
    if values["shmem_carveouts"]:
        lines.append("shmem_carveouts: [" + ", ".join(format_value("bytes", v)
                                                      for v in values["shmem_carveouts"]) + "]")
    path = Path(path)
    path.write_text("\n".join(_one_line(line) for line in lines) + "\n")
    reread = load_config(path)
    if reread.to_dict() | {"name": config.name} != values | {"name": config.name}:
        raise ConfigError(f"{path}: the written config does not read back as the tuned one", path=str(path))
    return path


def _one_line(line: str) -> str:
    return line.replace("\n", " ")
