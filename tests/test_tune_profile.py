"""Hardware profiles: the documented JSON form, its round trip, and the
importer of the reference suite's TITAN V output."""
from __future__ import annotations

import json

import pytest

from accelsim.microbench import HARDWARE_VALUES
from accelsim.tune import HwProfile, Measured, ProfileFormatError, import_reference, load_profile
from accelsim.tune.profile import SCHEMA


@pytest.fixture
def titanv(shared):
    return import_reference(shared / "hw" / "titanv_microbench" / "output.txt")


def test_importer_reads_the_titanv_output_exactly(titanv):
    v = titanv.value
    assert v("l1_lat") == 33.7331 and v("shared_lat") == 27.010254
    assert v("l2_lat") == 211.0720  # the l2_lat program's line, not mem_lat's 209.9695
    assert v("dram_lat") == 313.4630 and v("dram_bw") == 445.770477
    assert v("l2_bw") == 1365.73 and v("l2_bw_32") == 1365.42 and v("l2_bw_64") == 1384.53
    assert v("l1_bw_32") == 78.3484 and v("shared_bw_64") == 127.932
    assert v("kernel_lat") == 7257.6 and v("atomic_lat") == 243.626953
    assert titanv.measurements["l1_lat"].origin == "l1_lat: L1 Latency  =      33.7331 cycles"
    assert titanv.measurements["dram_bw"].unit == "B/clk"
    # every figure the simulated suite already quotes is the same number
    for name, value in HARDWARE_VALUES["TITANV"].items():
        assert v(name) == value, name


def test_importer_reads_the_device_facts(titanv):
    d = titanv.device
    assert d["name"] == "TITAN V" and d["sm_count"] == 80 and d["compute_capability"] == "7.0"
    assert d["max_clock_mhz"] == 1455 and d["base_clock_mhz"] == 1200
    assert d["memory_bus_width_bits"] == 3072 and d["memory_clock_mhz"] == 850
    assert d["l2_banks"] == 48 and d["memory_channels"] == 24 and d["memory_type"] == "HBM"
    assert d["dram_timing"]["RAS"] == 29 and d["dram_timing"]["nbkgrp"] == 4
    assert titanv.source["kind"] == "reference-output"


def test_profile_round_trips_through_json(titanv, tmp_path):
    titanv.measurements["l1_size"] = Measured(None, "cycles", 4096, [[16384, 33.0], [262144, 210.5]],
                                              "collect: l1_size")
    path = titanv.save(tmp_path / "hw.json")
    back = load_profile(path)
    assert back.to_dict() == titanv.to_dict()
    assert json.loads(path.read_text())["schema"] == SCHEMA


def _write(tmp_path, data):
    path = tmp_path / "hw.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("measurement, field", [
    ({"value": "fast", "unit": "cycles"}, "measurements.x.value"),
    ({"value": 1.0}, "measurements.x.unit"),
    ({"value": None, "unit": "cycles"}, "needs a value or samples"),
    ({"value": 1.0, "unit": "cycles", "reps": 1.5}, "measurements.x.reps"),
    ({"value": None, "unit": "cycles", "samples": [[1, 2, 3]]}, "measurements.x.samples"),
])
def test_a_malformed_profile_names_the_field(tmp_path, measurement, field):
    path = _write(tmp_path, {"schema": SCHEMA, "device": {}, "measurements": {"x": measurement}})
    with pytest.raises(ProfileFormatError, match=field.replace(".", r"\.")):
        load_profile(path)


def test_not_a_profile(tmp_path):
    with pytest.raises(ProfileFormatError, match="schema"):
        load_profile(_write(tmp_path, {"device": {}}))
    (tmp_path / "bad.json").write_text("{oops")
    with pytest.raises(ProfileFormatError, match=r"bad\.json:1"):
        load_profile(tmp_path / "bad.json")
    (tmp_path / "out.txt").write_text("hello\n")
    with pytest.raises(ProfileFormatError, match="not the reference suite's output"):
        import_reference(tmp_path / "out.txt")


def test_frame_lists_every_measurement(titanv):
    frame = titanv.frame()
    assert list(frame.columns) == ["name", "value", "unit", "reps", "origin"]
    assert len(frame) == len(titanv.measurements)
    assert isinstance(titanv, HwProfile)
