"""Parser defects found by the fuzzers (docs/reliability.md), each pinned by
the smallest input that showed it."""
from __future__ import annotations

import accelsim
from accelsim.devtools.fuzz.seeds import _MINI_GPGPUSIM


def test_specialized_unit_numbered_with_leading_zero(tmp_path):
    """Fuzz finding: ``-specialized_unit_03`` raised KeyError 'specialized_unit_3'."""
    g = tmp_path / "gpgpusim.config"
    g.write_bytes(_MINI_GPGPUSIM + b"-specialized_unit_03 1,4,4,4,4,TENSOR\n"
                                   b"-specialized_unit_\xc2\xb2 1,4,4,4,4,BRA\n")
    cfg = accelsim.import_gpgpusim_config(g)
    tensor = [u for u in cfg.exec_units if u["classes"] == ["tensor"]]
    assert tensor and tensor[0]["units_per_sm"] == 4
    # a non-ASCII "digit" is not a unit number: reported, not imported
    assert any(u.option == "specialized_unit_²" for u in cfg.unmodelled)


def test_config_base_with_a_name_too_long_for_a_path(tmp_path):
    """Fuzz finding (yaml_config:21:18899): ``base: xxx...`` of 300 characters
    raised OSError 'File name too long' from the bundled-name lookup; the trace,
    spec and sweep readers had the same hole."""
    import pytest

    gpu = tmp_path / "gpu.yaml"
    gpu.write_text("base: " + "x" * 300 + "\nsm_count: 4\n")
    with pytest.raises(accelsim.ConfigError, match="no config named"):
        accelsim.load_config(gpu)
    with pytest.raises(accelsim.TraceError, match="file name too long"):
        accelsim.open_trace("x" * 300)
    with pytest.raises(accelsim.ConfigError, match="no spec file"):
        accelsim.tune.load_spec("x" * 300)


def test_a_size_whose_unit_makes_it_infinite(tmp_path):
    """Fuzz finding (yaml_config:21:38783): a finite number times its unit
    (``1e306 GiB``) overflowed to infinity, and int() of it raised OverflowError."""
    import pytest

    with pytest.raises(accelsim.ConfigError, match="too large"):
        accelsim.load_config("QV100").with_overrides({"l2_size": "1e306 GiB"})
