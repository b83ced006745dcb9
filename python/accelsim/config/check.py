"""``accelsim config check``: a config's derived peaks beside the published
figures of the card it models, and whether its units cover its ISA.

What is derived (no simulation; the microbenchmarks measure):

* FLOP/s per precision from the execution units: a unit class runs one warp
  instruction per ``initiation`` cycles per unit; an FMA is 2 FLOP per lane
  (FP32 ``FFMA``, FP64 ``DFMA``), ``HFMA2`` 4, a tensor instruction the FLOP
  of its shape (:data:`TENSOR_FLOP_PER_INST`).
* Bandwidths: L1D ``l1d_bandwidth`` B/clk/SM, shared memory 4 B per bank per
  clock; below L1 what the chosen memory model can move at most: the detailed
  model ``l2_slice_bandwidth`` per L2 slice per L2 clock and ``bus width x data beats
  per command clock`` per DRAM channel; the simple model its configured
  ``l2_bandwidth`` / ``dram_bandwidth`` per core clock.
* Latencies: the configured ones (load-to-use, core cycles).

Rates are compared at the clock the published figure is stated at (per-clock
rate x SMs x that clock), so a config at its base clock still matches a
boost-clock TFLOPS figure. Problems:

* a simulated rate or bandwidth above the card's physical peak (more than 3 %
  over: published figures are rounded);
* an opcode of the generation's ISA table whose unit class no execution unit
  of the config executes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import yaml

from accelsim._paths import data_dir

#: Unit classes the SM handles itself (LD/ST unit, exit, barriers, no-ops,
#: waits for asynchronous copies).
SM_HANDLED = {"mem", "exit", "barrier", "nop", "depbar"}

#: FLOP one warp-wide tensor instruction does, by SASS version: Volta
#: HMMA.884 (a quarter of an m16n16k16 step per instruction: 512), Turing
#: HMMA.1688 (16x8x8x2 = 2048), Ampere and later HMMA.16816 (16x8x16x2 = 4096).
TENSOR_FLOP_PER_INST = {70: 512, 72: 512, 75: 2048, 80: 4096, 86: 4096, 87: 4096, 89: 4096,
                        90: 4096}

TOLERANCE = 0.03


@dataclass
class Row:
    quantity: str
    simulated: float | None
    published: float | None
    unit: str
    note: str = ""
    status: str = "info"  # ok, above, below, info

    @property
    def error_pct(self) -> float | None:
        if self.simulated is None or not self.published:
            return None
        return 100.0 * (self.simulated - self.published) / self.published


@dataclass
class CheckReport:
    config: str
    card: str | None
    isa: str
    rows: list[Row] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unmapped_opcodes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def table(self) -> str:
        lines = [f"{'quantity':<26}{'simulated':>12}{'published':>12}{'error':>9}  unit / note"]
        for r in self.rows:
            sim = "-" if r.simulated is None else f"{r.simulated:,.1f}"
            pub = "-" if r.published is None else f"{r.published:,.1f}"
            err = "" if r.error_pct is None else f"{r.error_pct:+.1f}%"
            flag = {"above": "  ABOVE PEAK", "below": "  below"}.get(r.status, "")
            lines.append(f"{r.quantity:<26}{sim:>12}{pub:>12}{err:>9}  {r.unit}{flag}"
                         + (f"  ({r.note})" if r.note else ""))
        return "\n".join(lines)


@lru_cache(maxsize=1)
def published_cards() -> dict:
    with open(data_dir() / "published" / "cards.yaml") as f:
        return yaml.safe_load(f)


def card_for(name: str) -> tuple[str, dict] | tuple[None, None]:
    """The published entry of a bundled config name or a reference alias."""
    cards = published_cards()
    if name in cards:
        return name, cards[name]
    for key, entry in cards.items():
        if name in entry.get("aliases", []):
            return key, entry
    return None, None


def _mhz(text) -> float:
    return float(str(text).split()[0])


def _class_rate(cfg, classes: set[str]) -> float:
    """Warp instructions per core clock per SM of the units running any of ``classes``."""
    return sum(u["units_per_sm"] / u["initiation"] for u in cfg.exec_units
               if classes & set(u["classes"]))


def _isa_table(version: int):
    from accelsim.trace._isa import isa_registry

    reg = isa_registry()
    name, _path, rows, unit_names = reg.table(version)
    return name, [(op, unit_names[unit]) for op, unit, _space, _flags in rows]


def _unit_of(table, opcode: str) -> str | None:
    return next((u for op, u in table if op == opcode), None)


def check_config(config, card: str | None = None) -> CheckReport:
    """Derived peaks of ``config`` (a Config or a name) beside the figures of
    ``card`` (a key of configs/published/cards.yaml; default: the config's
    own name or a reference alias of it)."""
    from accelsim.config import load_config

    cfg = load_config(config)
    card_key, pub = card_for(card or cfg.name)
    if card is not None and pub is None:
        from accelsim.errors import ConfigError

        raise ConfigError(f"no published figures for card {card!r} (known: "
                          f"{', '.join(published_cards())})", key="card")
    pub = pub or {}
    isa_name, table = _isa_table(int(cfg.sm_version))
    report = CheckReport(cfg.name, card_key, isa_name)
    _compute_rows(cfg, pub, table, report)
    _memory_rows(cfg, pub, report)
    _latency_rows(cfg, pub, report)
    _isa_coverage(cfg, table, report)
    return report


def _rate_row(report, quantity, per_clk_sm, cfg, pub, key, unit="TFLOP/s"):
    clock = _mhz(pub["clock"]) if "clock" in pub else cfg.core_clock
    value = per_clk_sm * cfg.sm_count * clock * 1e6 / 1e12
    row = Row(quantity, value, pub.get(key), unit, f"at {clock:g} MHz")
    _judge(row, report)
    report.rows.append(row)


def _judge(row: Row, report: CheckReport) -> None:
    if row.published is None or row.simulated is None:
        return
    ratio = row.simulated / row.published
    row.status = "above" if ratio > 1 + TOLERANCE else "below" if ratio < 1 - TOLERANCE else "ok"
    if row.status == "above":
        report.problems.append(f"{row.quantity}: simulated {row.simulated:,.1f} {row.unit} is above "
                               f"the card's physical peak {row.published:,.1f} {row.unit}")


def _compute_rows(cfg, pub, table, report):
    _rate_row(report, "FP32 FMA", _class_rate(cfg, {_unit_of(table, "FFMA") or "sp"}) * 64,
              cfg, pub, "fp32_tflops")
    _rate_row(report, "FP64 FMA", _class_rate(cfg, {_unit_of(table, "DFMA") or "dp"}) * 64,
              cfg, pub, "fp64_tflops")
    hfma2 = _unit_of(table, "HFMA2")
    if hfma2:
        _rate_row(report, "FP16 HFMA2", _class_rate(cfg, {hfma2}) * 128, cfg, pub, "fp16_tflops")
    per_inst = TENSOR_FLOP_PER_INST.get(int(cfg.sm_version))
    if per_inst and _unit_of(table, "HMMA"):
        _rate_row(report, "tensor (FP16, dense)",
                  _class_rate(cfg, {_unit_of(table, "HMMA")}) * per_inst, cfg, pub, "tensor_tflops")


def _memory_rows(cfg, pub, report):
    report.rows.append(Row("L1D bandwidth", float(cfg.l1d_bandwidth), None, "B/clk/SM"))
    report.rows.append(Row("shared memory bandwidth", 4.0 * cfg.shmem_banks, None, "B/clk/SM"))
    if cfg.memory_model == "detailed":
        slices = cfg.memory_partitions * cfg.l2_slices_per_partition
        l2 = slices * cfg.l2_slice_bandwidth * cfg.l2_clock * 1e6 / 1e9
        dram = (cfg.memory_partitions * cfg.dram_bus_width * cfg.dram_data_command_ratio
                * cfg.dram_clock * 1e6 / 1e9)
        how = "detailed model"
    else:
        l2 = cfg.l2_bandwidth * cfg.core_clock * 1e6 / 1e9
        dram = cfg.dram_bandwidth * cfg.core_clock * 1e6 / 1e9
        how = "simple model"
    report.rows.append(Row("L2 bandwidth", l2, None, "GB/s", how))
    row = Row("DRAM bandwidth", dram, pub.get("dram_gbs"), "GB/s", how)
    _judge(row, report)
    report.rows.append(row)
    row = Row("L2 size", cfg.l2_size / 2**20, pub.get("l2_mib"), "MiB")
    if row.published:
        row.status = "ok" if abs(row.error_pct) < 1 else "below" if row.error_pct < 0 else "info"
    report.rows.append(row)


def _latency_rows(cfg, pub, report):
    src = pub.get("latency_source", "")
    simple = cfg.memory_model == "simple"
    rows = [("L1D hit latency", cfg.l1d_hit_latency, "l1_lat", "configured"),
            ("shared memory latency", cfg.shmem_latency, "shared_lat", "configured"),
            ("L2 hit latency", cfg.l2_hit_latency if simple else None, "l2_lat",
             "configured" if simple else "detailed model: its twin is simulated"),
            ("DRAM latency", cfg.dram_latency if simple else None, "dram_lat",
             "configured" if simple else "detailed model: its twin is simulated")]
    for quantity, value, key, note in rows:
        published = pub.get(key)
        note = note + (f"; published: {src}" if published is not None and src else "")
        report.rows.append(Row(quantity, None if value is None else float(value), published,
                               "cycles", note))


def _isa_coverage(cfg, table, report):
    executed = {c for u in cfg.exec_units for c in u["classes"]}
    overrides = dict(cfg.opcode_units or {})
    missing = sorted(op for op, unit in table
                     if overrides.get(op, unit) not in SM_HANDLED | executed)
    report.unmapped_opcodes = missing
    if missing:
        classes = sorted({overrides.get(op, u) for op, u in table if op in missing})
        report.problems.append(f"{len(missing)} opcodes of {report.isa} run on unit classes no "
                               f"execution unit executes ({', '.join(classes)}): "
                               f"{', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}")
