"""Each bad input a user met, written as they met it. Every one
must end as an accelsim exception (or a one-line CLI error, exit 1) naming
what is wrong, never a pybind11 cast error, a Python internal error or a
silent wrong answer."""
from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

import accelsim
from accelsim.tracegen.examples import write_vecadd


def cli(*args):
    return subprocess.run([sys.executable, "-m", "accelsim", *args], capture_output=True,
                          text=True, timeout=300)


def one_line_error(out, command: str, *needles: str) -> None:
    assert out.returncode == 1, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"accelsim {command}: error: "), out.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.fixture(scope="module")
def vecadd(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("vecadd"), n=2048)


@pytest.fixture(scope="module")
def sim():
    return accelsim.Simulator("QV100")


# ---- arguments that cross into C++ -------------------------------------------
@pytest.mark.parametrize("value, needle", [
    (-1, "max_cycles = -1 is out of range"), ("x", "max_cycles must be an integer"),
    (2**64, "max_cycles = 18446744073709551616 is out of range"), (1.5, "must be an integer"),
    (True, "must be an integer"), (0, "out of range")])
def test_max_cycles_out_of_range_is_a_config_error(sim, vecadd, value, needle):
    with pytest.raises(accelsim.ConfigError, match=needle) as err:
        sim.run(vecadd, max_cycles=value)
    assert err.value.key == "max_cycles" and "Unable to cast" not in str(err.value)


def test_cli_max_cycles_minus_one(vecadd):
    one_line_error(cli("run", str(vecadd), "--max-cycles", "-1"), "run", "max_cycles", "[1, ")


@pytest.mark.parametrize("entries, key, needle", [
    ({"sm_count": "many"}, "sm_count", "bad value 'many'"),
    ({"l2_size": [1, 2]}, "l2_size", "bad value"),
    ({"core_clock": float("inf")}, "core_clock", "finite"),
    ({"sm_count": 2**64}, "sm_count", "out of range"),
    ({"exec_units": "fast"}, "exec_units", "expected a list"),
])
def test_dict_config_with_a_wrong_value_names_the_key(entries, key, needle):
    with pytest.raises(accelsim.ConfigError, match=needle) as err:
        accelsim.Simulator(entries)
    assert err.value.key == key and "Unable to cast" not in str(err.value)


def test_unknown_keys_are_rejected_the_same_way_everywhere(tmp_path, vecadd):
    """dict config, with_overrides, --set and YAML: one error with a suggestion."""
    messages = []
    for make in (lambda: accelsim.Simulator({"sm_cout": 4}),
                 lambda: accelsim.load_config("QV100").with_overrides({"sm_cout": 4})):
        with pytest.raises(accelsim.ConfigError, match="did you mean 'sm_count'") as err:
            make()
        messages.append(str(err.value))
    path = tmp_path / "mine.yaml"
    path.write_text("base: QV100\nsm_cout: 4\n")
    with pytest.raises(accelsim.ConfigError, match="did you mean 'sm_count'") as err:
        accelsim.load_config(path)
    assert err.value.line == 2
    assert messages[0] == messages[1] == "config key 'sm_cout': unknown key; did you mean 'sm_count'?"
    one_line_error(cli("run", str(vecadd), "--set", "sm_cout=4"), "run", "did you mean 'sm_count'")


# ---- config files ------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n# only a comment\n", "name: mine\n",
                                  "description: nothing set\n"])
def test_empty_yaml_config_is_rejected(tmp_path, text):
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    with pytest.raises(accelsim.ConfigError, match="empty|sets no parameter"):
        accelsim.load_config(path)


def test_binary_yaml_is_a_config_error(tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(accelsim.ConfigError, match="not a YAML text file") as err:
        accelsim.load_config(path)
    assert err.value.path == str(path)


def test_zero_sized_l1d_sets_name_the_users_key_file_and_line(tmp_path):
    path = tmp_path / "tiny_l1.yaml"
    path.write_text("base: QV100\nsm_count: 4\nl1d_size: 1 KiB\n")
    with pytest.raises(accelsim.ConfigError, match="holds no whole set") as err:
        accelsim.load_config(path)
    assert (err.value.key, err.value.path, err.value.line) == ("l1d_size", str(path), 3)
    assert str(err.value).startswith(f"{path}:3: config key 'l1d_size'")


def test_no_l1d_at_all_is_still_a_valid_config():
    assert accelsim.load_config("QV100").with_overrides({"l1d_size": 0}).l1d_size == 0


def test_l2_slice_not_whole_sets_names_l2_size_not_internal_names(tmp_path):
    path = tmp_path / "odd_l2.yaml"
    path.write_text("base: QV100\n\nl2_size: 6000 KiB\n")
    with pytest.raises(accelsim.ConfigError, match="per slice") as err:
        accelsim.load_config(path)
    assert (err.value.key, err.value.line) == ("l2_size", 3)
    assert "gpu.l2" not in str(err.value)
    with pytest.raises(accelsim.ConfigError, match="set by an override") as err:
        accelsim.load_config("QV100").with_overrides({"l2_size": "6000 KiB"})
    assert err.value.key == "l2_size"


def test_core_component_keys_map_to_config_keys():
    from accelsim.config.config import user_key

    assert user_key("gpu.l2[0].size") == "l2_size"
    assert user_key("gpu.sm[3].l1d.miss_queue") == "l1d_miss_queue"
    assert user_key("sm_count") == "sm_count"


# ---- kernelslists ------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "garbage\nmore garbage\n", "\n\n   \n"])
def test_kernelslist_with_nothing_to_run_is_an_error(sim, tmp_path, text):
    path = tmp_path / "kernelslist.g"
    path.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accelsim.AccelsimWarning)
        with pytest.raises(accelsim.TraceError, match="no kernel to simulate") as err:
            sim.run(path)
    assert err.value.path == str(path)


def test_dev_null_kernelslist_is_an_error(sim):
    # A device is refused before it is read (/dev/zero would never end).
    with pytest.raises(accelsim.TraceError, match="/dev/null: is a character device, not a trace"):
        sim.run("/dev/null")


def test_cli_garbage_kernelslist_exits_nonzero(tmp_path):
    path = tmp_path / "kernelslist.g"
    path.write_text("this is not a trace\n")
    out = cli("run", str(path))
    assert out.returncode == 1 and "no kernel to simulate" in out.stderr
    assert f"{path}:1: command 'this is not a trace' not understood" in out.stderr


def test_misspelt_command_warns_with_file_and_line(sim, vecadd, tmp_path):
    listing = tmp_path / "kernelslist.g"
    lines = vecadd.read_text().splitlines()
    kernel = vecadd.parent / lines[-1]
    listing.write_text(f"Memcpyhtod,0x7f4a3c000000,8192\n{kernel}\n")
    with pytest.warns(accelsim.AccelsimWarning, match=r"kernelslist.g:1: command 'Memcpyhtod,"):
        result = sim.run(listing)
    assert result.num_kernels == 1


def test_directory_named_like_a_kernel_file_says_directory(sim, tmp_path):
    (tmp_path / "kernel-1.traceg").mkdir()
    (tmp_path / "kernelslist.g").write_text("kernel-1.traceg\n")
    with pytest.raises(accelsim.TraceError, match="is a directory") as err:
        sim.run(tmp_path / "kernelslist.g")
    assert err.value.line == 1


# ---- kernel selection ----------------------------------------------------------
def test_kernels_naming_no_kernel_lists_the_ids(sim, vecadd):
    with pytest.raises(accelsim.ConfigError, match="its kernel ids are: 1"):
        sim.run(vecadd, kernels="7,9-12")
    one_line_error(cli("run", str(vecadd), "--kernels", "42"), "run", "kernel ids are: 1")


def test_huge_kernel_range_is_not_expanded(sim, vecadd):
    from accelsim.kernel_selection import parse_selection

    selection = parse_selection("1-99999999999,3")
    assert selection.intervals == ((1, 2**32 - 1),)
    assert 5 in selection and 0 not in selection
    result = sim.run(vecadd, kernels="1-99999999999")
    assert result.num_kernels == 1 and not result.columns["skipped"][0]


@pytest.mark.parametrize("spec, needle", [
    ("x", "not an id"), ("5-3", "backwards"), ("-4", "not negative"), ([2.5], "not an id"),
    (3.5, "kernel selection must be"), (object(), "kernel selection must be")])
def test_bad_kernel_selections(sim, vecadd, spec, needle):
    with pytest.raises(accelsim.ConfigError, match=needle):
        sim.run(vecadd, kernels=spec)


# ---- output paths ----------------------------------------------------------------
@pytest.mark.parametrize("command", ["run", "example", "correlate"])
def test_output_folder_that_is_a_file_is_one_line(tmp_path, vecadd, command):
    taken = tmp_path / "taken"
    taken.write_text("mine")
    args = {"run": ["run", str(vecadd), "--save", str(taken)],
            "example": ["example", "--out", str(taken)],
            "correlate": ["correlate", "--hw", "x.csv", "--sim", str(tmp_path), "--out",
                          str(taken)]}[command]
    option = "--save" if command == "run" else "--out"
    one_line_error(cli(*args), command, f"{option} {taken}: exists and is not a folder")
    assert taken.read_text() == "mine"


# ---- profiler exports --------------------------------------------------------------
NSIGHT_HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
                 '"gpc__cycles_elapsed.max","sm__inst_executed.sum"')
NSIGHT_UNITS = '"","","","","","","","cycle","inst"'


def _nsight(tmp_path, rows: list[str]):
    path = tmp_path / "nsight.csv"
    path.write_text("\n".join([NSIGHT_HEADER, NSIGHT_UNITS, *rows]) + "\n")
    return path


def test_profile_with_only_a_header_is_rejected(tmp_path):
    from accelsim.correlation import read_profile

    with pytest.raises(accelsim.ProfileError, match="no kernel launch rows"):
        read_profile(_nsight(tmp_path, []))


def test_negative_profiler_counts_are_dropped_with_a_warning_naming_rows(tmp_path):
    from accelsim.correlation import read_profile

    path = _nsight(tmp_path, ['"0","1","a","h","vecAdd","1","7","1000","-5"',
                              '"1","1","a","h","vecAdd","1","7","-3","40"'])
    with pytest.warns(accelsim.AccelsimWarning, match="2 negative value") as record:
        tidy = read_profile(path)
    message = str(record[0].message)
    assert "line 3 'sm__inst_executed.sum' = -5" in message
    assert "line 4 'gpc__cycles_elapsed.max' = -3" in message
    assert (tidy["value"] >= 0).all() and len(tidy) == 2


@pytest.mark.parametrize("value", [-4, 0, float("nan")])
def test_correlate_rejects_impossible_sm_counts(value):
    with pytest.raises(accelsim.ConfigError, match="num_sms"):
        accelsim.correlate("unused.csv", "unused", num_sms=value)


def test_cli_correlate_num_sms_negative(tmp_path):
    one_line_error(cli("correlate", "--hw", "x.csv", "--sim", str(tmp_path), "--out",
                       str(tmp_path / "r"), "--num-sms", "-4"), "correlate", "num_sms")


# ---- GPGPU-Sim importer ----------------------------------------------------------
MAPPING_TAIL = ";00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"


@pytest.mark.parametrize("line, needle", [
    (f"-gpgpu_mem_addr_mapping dramid@-8{MAPPING_TAIL}", "dramid@-8"),
    (f"-gpgpu_mem_addr_mapping dramid@4294967304{MAPPING_TAIL}", "dramid@4294967304"),
    ("-gpgpu_shmem_option 0,8,16,18446744073709551616", "out of range"),
])
def test_importer_bad_values_name_file_line_and_option(tmp_path, line, needle):
    path = tmp_path / "gpgpusim.config"
    path.write_text("-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 1\n" + line + "\n")
    option = line.split()[0][1:]
    with pytest.raises(accelsim.ConfigError, match=needle) as err:
        accelsim.import_gpgpusim_config(path)
    assert (err.value.path, err.value.line, err.value.key) == (str(path), 3, option)
    assert str(err.value).startswith(f"{path}:3: option -{option}")


@pytest.mark.parametrize("text", ["", "# comments only\n\n"])
def test_empty_gpgpusim_config_is_rejected(tmp_path, text):
    path = tmp_path / "gpgpusim.config"
    path.write_text(text)
    with pytest.raises(accelsim.ConfigError, match="no -option in this file"):
        accelsim.import_gpgpusim_config(path)


# ---- architecture ------------------------------------------------------------------
def test_sm80_trace_on_qv100_warns_naming_both(sim, tmp_path):
    ampere = write_vecadd(tmp_path / "a", n=512, binary_version=80)
    with pytest.warns(accelsim.AccelsimWarning, match=r"sm_80 \(Ampere\) but config 'QV100' "
                                                      r"models sm_70 \(Volta\)"):
        sim.run(ampere)
    volta = write_vecadd(tmp_path / "v", n=512, binary_version=70)
    with warnings.catch_warnings():
        warnings.simplefilter("error", accelsim.AccelsimWarning)
        sim.run(volta)


def test_imported_config_knows_its_sm_version(tmp_path):
    path = tmp_path / "gpgpusim.config"
    path.write_text("-gpgpu_compute_capability_major 8\n-gpgpu_compute_capability_minor 6\n")
    assert accelsim.import_gpgpusim_config(path).sm_version == 86


def test_json_run_output_still_complete(vecadd):
    out = cli("run", str(vecadd), "--json")
    data = json.loads(out.stdout)
    assert data["kernels"][0]["duration_ns"] > 0 and data["streams"][0]["kernels"] == 1


def test_cli_directory_named_like_a_kernel_file(tmp_path):
    folder = tmp_path / "kernel-1.traceg"
    folder.mkdir()
    for command in ("run", "trace-info"):
        one_line_error(cli(command, str(folder)), command, "is a directory, not a kernel trace")


def test_warnings_point_at_the_callers_line(sim, tmp_path):
    ampere = write_vecadd(tmp_path / "a", n=256, binary_version=80)
    with pytest.warns(accelsim.AccelsimWarning) as record:
        sim.run(ampere)
    assert record[0].filename == __file__
