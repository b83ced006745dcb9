"""MUFU per-function timing (sass_latency_mufu_* / sass_initiation_mufu_*):
a bundled config carries a function's latency and initiation interval
exactly where a measured figure for that function exists on its card
(configs/published/measured.yaml), and a MUFU-bound kernel's simulated
cycles follow the per-function keys rather than the sfu unit's timing."""
from __future__ import annotations

import pytest

import accelsim
from accelsim.microbench import fidelity, published
from accelsim.microbench.alu_ops import MUFU_FUNCTIONS, op_for

# The sfu twins and the key each one's figure pins.
_KEY = {"sfu_lat": "sass_latency_mufu_{}", "sfu_throughput": "sass_initiation_mufu_{}"}


def _mufu_figures():
    for name, card in sorted(published.cards().items()):
        for f in card.figures:
            if f.quantity in _KEY:
                yield name, f


def test_every_published_mufu_figure_is_carried_by_its_config():
    figures = list(_mufu_figures())
    assert figures, "no measured MUFU figure: the TITAN V suite's MUFU.SQRT rows are expected"
    for name, f in figures:
        function = f.options.get("function", "sqrt")
        cfg = accelsim.load_config(name)
        key = _KEY[f.quantity].format(function)
        assert int(getattr(cfg, key)) > 0, f"{name}: {key} is not set though {f.where} is measured"
        got = fidelity.simulate(cfg, f.quantity, f.options, f.unit)
        assert got == pytest.approx(f.value, rel=0.05), (name, f.quantity, function, got)


def test_no_config_carries_a_mufu_timing_without_a_measured_figure():
    measured = {(n, _KEY[f.quantity].format(f.options.get("function", "sqrt"))) for n, f in _mufu_figures()}
    for name in accelsim.list_configs():
        cfg = accelsim.load_config(name)
        for fn in MUFU_FUNCTIONS:
            for pattern in _KEY.values():
                key = pattern.format(fn)
                if int(getattr(cfg, key)):
                    assert (name, key) in measured, f"{name}: {key} has no measured figure"


def test_a_mufu_bound_kernel_follows_the_per_function_keys():
    cfg = accelsim.load_config("TITANV")
    lat = lambda c, fn: fidelity.simulate(c, "sfu_lat", {"function": fn}, "cycles")  # noqa: E731
    rate = lambda c, fn: fidelity.simulate(c, "sfu_throughput", {"function": fn}, "op/clk/SM")  # noqa: E731
    # Unset functions take the sfu unit's 21 / 8; SQRT its own (measured) keys.
    assert lat(cfg, "ex2") == pytest.approx(21.0, abs=0.1)
    assert lat(cfg, "sqrt") == pytest.approx(21.0, abs=0.1)
    slow = cfg.with_overrides({"sass_latency_mufu_ex2": 30, "sass_initiation_mufu_ex2": 16,
                               "sass_latency_mufu_sqrt": 14})
    assert lat(slow, "ex2") == pytest.approx(30.0, abs=0.1)
    assert lat(slow, "sqrt") == pytest.approx(14.0, abs=0.1)
    assert lat(slow, "sin") == pytest.approx(21.0, abs=0.1)   # the unit's
    # 4 pipes x 32 lanes per initiation interval
    assert rate(slow, "ex2") == pytest.approx(128 / 16, rel=0.02)
    assert rate(slow, "sqrt") == pytest.approx(128 / 8, rel=0.02)


def test_a_function_outside_mufu_is_refused():
    with pytest.raises(ValueError, match="tanh"):
        op_for("sfu", "tanh")
    with pytest.raises(ValueError, match="fp32"):
        op_for("fp32", "ex2")
