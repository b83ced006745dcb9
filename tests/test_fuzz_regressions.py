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
