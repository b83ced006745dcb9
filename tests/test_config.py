"""The config system: declarations, units, validation, bundled configs."""
import pytest

import accelsim
from accelsim.config.units import format_value, parse_value


def test_bundled_configs_listed_and_load():
    assert {"QV100", "TITANV"} <= set(accelsim.list_configs())
    q = accelsim.load_config("QV100")
    assert q.sm_count == 80
    assert q.core_clock == 1132.0
    assert q.l2_size == 6 * 1024 * 1024
    assert q.l1d_hit_latency == 28
    assert q.scheduler == "lrr"
    assert [u["name"] for u in q.exec_units][:4] == ["sp", "int", "dp", "sfu"]
    assert q.shmem_carveouts[-1] == 96 * 1024


def test_titanv_inherits_and_overrides():
    t = accelsim.load_config("TITANV")
    q = accelsim.load_config("QV100")
    assert t.core_clock == 1200.0 and t.memory_partitions == 24
    assert t.l1d_hit_latency == 34 and t.shmem_latency == 27
    assert t.sm_count == q.sm_count  # inherited
    assert "core_clock" in t.diff(q)


@pytest.mark.parametrize("kind,text,value", [
    ("bytes", "6 MiB", 6 * 2**20), ("bytes", "128KiB", 131072), ("bytes", "32 B", 32),
    ("bytes", "4 KB", 4096), ("bytes", "4 kB", 4000), ("bytes", 64, 64),
    ("MHz", "1.2 GHz", 1200.0), ("MHz", "850 MHz", 850.0), ("cycles", "28 cycles", 28),
    ("bool", "yes", True), ("bool", False, False), ("count", "12", 12),
])
def test_units(kind, text, value):
    assert parse_value(kind, text) == value


def test_format_roundtrip():
    for kind, value in [("bytes", 6 * 2**20), ("bytes", 100), ("MHz", 1132.0), ("cycles", 5)]:
        assert parse_value(kind, format_value(kind, value)) == value


def test_with_overrides_is_new_object():
    q = accelsim.load_config("QV100")
    q2 = q.with_overrides({"l2_size": "3 MiB", "scheduler": "gto"})
    assert q2.l2_size == 3 * 2**20 and q2.scheduler == "gto"
    assert q.l2_size == 6 * 2**20
    assert q2 != q and q == accelsim.load_config("QV100")


def test_config_is_immutable_and_carries_provenance_as_a_field():
    import copy
    import pickle

    from accelsim.config.config import Config

    cfg = accelsim.load_config("QV100")
    for key, value in (("provenance", {}), ("name", "x"), ("l2_size", 1), ("_values", {})):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(cfg, key, value)
    with pytest.raises(AttributeError, match="immutable"):
        del cfg.name
    assert cfg.provenance == {}
    tuned = Config.from_entries({"l2_size": "12 MiB"}, "tuned", base=cfg,
                                provenance={"l2_size": "spec", "sm_count": "spec"})
    assert tuned.provenance == {"l2_size": "spec", "sm_count": "spec"}
    # A value overridden later no longer comes from the tool's source.
    assert tuned.with_overrides({"l2_size": "3 MiB"}).provenance == {"sm_count": "spec"}
    for again in (pickle.loads(pickle.dumps(tuned)), copy.deepcopy(tuned)):
        assert again == tuned and again.provenance == tuned.provenance


def test_unknown_key_suggests_closest():
    with pytest.raises(accelsim.ConfigError, match="did you mean 'l2_size'") as err:
        accelsim.load_config("QV100").with_overrides({"l2_sise": "1 MiB"})
    assert err.value.key == "l2_sise"


@pytest.mark.parametrize("key,value,needle", [
    ("sm_count", 0, "out of range"), ("l2_size", "7 parsecs", "unknown size unit"),
    ("scheduler", "fifo", "one of lrr, gto, two_level"), ("core_clock", "fast", "number"),
    ("l1d_hit_latency", "2.5 cycles", "whole number"), ("sub_core_model", "maybe", "true/false"),
])
def test_bad_values_name_key_value_and_range(key, value, needle):
    with pytest.raises(accelsim.ConfigError) as err:
        accelsim.load_config("QV100").with_overrides({key: value})
    assert key in str(err.value) and str(value) in str(err.value) and needle in str(err.value)


def test_cross_field_rule_from_core():
    with pytest.raises(accelsim.ConfigError, match="l2_sector"):
        accelsim.load_config("QV100").with_overrides({"l2_sector": "48 B"})


def test_exec_unit_validation():
    q = accelsim.load_config("QV100")
    with pytest.raises(accelsim.ConfigError, match=r"exec_units\[0\].latency"):
        q.with_overrides({"exec_units": [{"name": "sp", "units_per_sm": 4, "latency": "x",
                                          "initiation": 2, "classes": ["sp"]}]})
    with pytest.raises(accelsim.ConfigError, match="missing"):
        q.with_overrides({"exec_units": [{"name": "sp"}]})
    custom = q.exec_units + [{"name": "rt", "units_per_sm": 1, "latency": "40 cycles",
                              "initiation": "8 cycles", "classes": ["raytrace"]}]
    assert q.with_overrides({"exec_units": custom}).exec_units[-1]["latency"] == 40


def test_exec_unit_fields_are_the_cores():
    # cpp/config/exec_unit_fields.def declares them once: Python checks the
    # same fields and ranges the C++ validation does.
    from accelsim import _core
    from accelsim.config.params import exec_unit_fields

    assert [d["name"] for d in _core.exec_unit_fields()] == list(exec_unit_fields())
    q = accelsim.load_config("QV100")
    wide = {"name": "sp", "units_per_sm": 2000, "latency": 4, "initiation": 2, "classes": ["sp"]}
    with pytest.raises(accelsim.ConfigError, match=r"exec_units\[0\].units_per_sm.*\[1, 1024\]"):
        q.with_overrides({"exec_units": [wide]})
    unit = q.with_overrides({"exec_units": [dict(wide, units_per_sm=8)]}).exec_units[0]
    assert unit["lanes"] == exec_unit_fields()["lanes"].default == 32


def test_file_errors_carry_path_and_line(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("base: QV100\nsm_count: 40\nl2_size: lots\n")
    with pytest.raises(accelsim.ConfigError) as err:
        accelsim.load_config(path)
    assert err.value.path == str(path) and err.value.line == 3 and err.value.key == "l2_size"
    path.write_text("sm_count: [1,\n")
    with pytest.raises(accelsim.ConfigError, match="not valid YAML"):
        accelsim.load_config(path)
    with pytest.raises(accelsim.ConfigError, match="no config named"):
        accelsim.load_config("NOPE100")


def test_yaml_roundtrip(tmp_path):
    t = accelsim.load_config("TITANV")
    path = tmp_path / "t.yaml"
    path.write_text(t.to_yaml())
    assert accelsim.load_config(path) == t


def test_repr_and_describe():
    q = accelsim.load_config("QV100")
    assert "QV100" in repr(q) and "6 MiB" in repr(q)
    table = q.describe()
    assert set(table.columns) >= {"name", "value", "default", "doc"}
    assert table.set_index("name").loc["l2_size", "value"] == "6 MiB"


def test_every_declared_param_has_doc_and_default():
    from accelsim.config import param_specs

    specs = param_specs()
    assert len(specs) > 100
    for spec in specs.values():
        assert spec.doc and spec.kind in {"count", "cycles", "bytes", "MHz", "real", "percent",
                                          "bool", "choice"}


def test_bundled_configs_are_read_once_and_handed_out_as_copies(tmp_path, monkeypatch):
    """Every ``base: QV100`` reads the bundled file once per process; each caller
    still gets its own Config, and a user's file is read again every time."""
    from accelsim.config import files

    first = accelsim.load_config("QV100")
    reads = []
    real = files._read_yaml
    monkeypatch.setattr(files, "_read_yaml", lambda path: reads.append(path) or real(path))
    second = accelsim.load_config("QV100")
    assert reads == [] and second == first and second is not first
    second.unmodelled.append("not shared")
    second.provenance["sm_count"] = "not shared"
    assert accelsim.load_config("QV100").unmodelled == [] == first.unmodelled
    assert accelsim.load_config("QV100").provenance == {}

    user = tmp_path / "gpu.yaml"
    user.write_text("base: QV100\nsm_count: 40\n")
    assert accelsim.load_config(user).sm_count == 40
    user.write_text("base: QV100\nsm_count: 42\n")
    assert accelsim.load_config(user).sm_count == 42
    assert reads == [user, user]  # the user's file twice, its bundled base not at all
