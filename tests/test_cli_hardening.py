"""Command-line and API arguments that name nothing, point at the wrong kind of
file or ask for something that does not exist end in one clear error, before
any work is done."""
from __future__ import annotations

import subprocess
import sys

import pytest

import accelsim
from accelsim.tracegen.examples import write_vecadd


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "accelsim", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def one_line_error(out, *needles):
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "error:" in lines[0], out.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def vecadd(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("vecadd"), n=256, block=128)


@pytest.mark.parametrize("spec", [",,,", "", " , ", []])
def test_a_kernel_selection_naming_no_id_is_an_error_not_every_kernel(vecadd, spec):
    with pytest.raises(accelsim.ConfigError, match="names no kernel id"):
        accelsim.Simulator("QV100").run(vecadd, kernels=spec)


@pytest.mark.parametrize("spec", ["+3", "1_000", "\u0663", "1--3", "0x3", "-"])
def test_a_kernel_selection_takes_plain_ascii_ids_only(spec):
    from accelsim.kernel_selection import parse_selection

    with pytest.raises(accelsim.ConfigError, match="kernel selection"):
        parse_selection(spec)


def test_cli_kernels_of_commas_is_an_error(vecadd):
    one_line_error(cli("run", vecadd, "--kernels", ",,,"), "names no kernel id")


def test_non_utf8_kernel_name_is_refused_when_read_by_trace_info_and_run(tmp_path):
    listing = write_vecadd(tmp_path, n=256, block=128)
    kernel = tmp_path / "kernel-1.traceg"
    kernel.write_bytes(kernel.read_bytes().replace(b"_Z6vecAdd", b"_Z6vec\xffAdd", 1))
    for command in ("trace-info", "run"):
        line = one_line_error(cli(command, listing), "kernel-1.traceg:1:", "'kernel name'",
                              "not UTF-8", "0xff")
        assert f"accelsim {command}: error:" in line
    with pytest.raises(accelsim.TraceError) as err:
        accelsim.open_trace(listing).totals()
    assert err.value.field == "kernel name" and err.value.line == 1


# ---- tune config: arguments checked first, a thin profile warned about ----------------------

def _profile(tmp_path, names):
    from accelsim.tune import HwProfile, Measured

    hw = HwProfile({"name": "test"}, {n: Measured(30.0, "cycles") for n in names})
    return hw.save(tmp_path / "hw.json")


@pytest.mark.parametrize("args, needle", [
    (["--workers", "0"], "workers must be a positive"),
    (["--max-cycles", "0"], "max_cycles = 0 is out of range"),
    (["--search", "warp_magic=1"], "not a declared parameter"),
    (["--search", "scheduler=nope"], "'scheduler': bad value 'nope'"),
    (["--search", "l2_mshrs=0"], "outside its declared range"),
    (["--search", ";;"], "names no parameter"),
    (["-o", "{tmp}"], "is a folder; give a file name"),
    (["-o", "{tmp}/no/such/x.yaml"], "does not exist"),
    (["--report", "{tmp}/hw.json"], "exists and is not a folder"),
    (["--spec", "{tmp}"], "is a folder, not a spec file"),
    (["--base", "NOPE100"], "no config named"),
])
def test_tune_config_checks_every_argument_before_any_work(tmp_path, args, needle):
    hw = _profile(tmp_path, ["l1_lat", "shared_lat"])
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    defaults = {"--spec": "TITANV", "-o": str(tmp_path / "out.yaml")}
    for option, value in defaults.items():
        if option not in args:
            args += [option, value]
    out = cli("tune", "config", "--hw", hw, *args)
    assert out.returncode == 1, out.stderr
    assert needle in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert "generating" not in out.stderr  # the first step of the work never started
    assert not (tmp_path / "out.yaml").exists()


def test_tune_profile_coverage_warns_when_partial_and_refuses_when_empty(tmp_path):
    from accelsim.tune import HwProfile, Measured, ProfileFormatError
    from accelsim.tune.checks import check_coverage, used_measurements

    used = used_measurements()
    assert "l1_lat" in used and "kernel_lat" in used and "l1_size" not in used
    with pytest.warns(accelsim.AccelsimWarning, match=rf"2 of the {len(used)} measurements") as w:
        check_coverage(HwProfile({}, {n: Measured(1.0, "x") for n in used[:2]}), "hw.json")
    assert used[2] in str(w[0].message)  # names what is missing
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_coverage(HwProfile({}, {n: Measured(1.0, "x") for n in used}), "hw.json")
    with pytest.raises(ProfileFormatError, match="none of the .* measurements the tuner uses"):
        check_coverage(HwProfile({}, {"l1_size": Measured(1.0, "B")}), "hw.json")


def test_tune_config_on_a_profile_without_usable_measurements_is_one_line(tmp_path):
    hw = _profile(tmp_path, ["l1_size"])
    line = one_line_error(cli("tune", "config", "--hw", hw, "--spec", "TITANV", "-o",
                              tmp_path / "x.yaml"), "nothing to tune to")
    assert str(hw) in line


# ---- paths that are not regular files, outputs that cannot be written ----------------------

@pytest.fixture
def fifo(tmp_path):
    import os

    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("target, kind", [("/dev/zero", "a character device"),
                                          ("{tmp}", "a folder"),
                                          ("{fifo}", "a named pipe")])
def test_config_that_is_not_a_regular_file_says_what_it_is(tmp_path, fifo, target, kind):
    target = target.replace("{tmp}", str(tmp_path)).replace("{fifo}", str(fifo))
    for args in (["config", "check", target], ["config", "show", target],
                 ["run", "x", "--config", target]):
        line = one_line_error(cli(*args, timeout=30), target, kind, "not a config file")
        assert "no config named" not in line
    with pytest.raises(accelsim.ConfigError, match=kind):
        accelsim.load_config(target)


@pytest.mark.parametrize("args, needle", [
    (["run", "{fifo}"], "is a named pipe (FIFO), not a trace file"),
    (["trace-info", "/dev/zero"], "is a character device, not a trace file"),
    (["config", "import", "/dev/zero"], "not a GPGPU-Sim config file"),
    (["config", "import", "{fifo}"], "not a GPGPU-Sim config file"),
    (["correlate", "--hw", "{fifo}", "--sim", "{tmp}", "--out", "{tmp}/r"], "not a profiler export"),
    (["tune", "config", "--hw", "/dev/zero", "--spec", "TITANV", "-o", "{tmp}/x.yaml"],
     "is a character device"),
    (["tune", "config", "--hw", "{fifo}.json", "--spec", "TITANV", "-o", "{tmp}/x.yaml"],
     "cannot read the hardware profile"),
    (["sweep", "{fifo}"], "is a named pipe (FIFO), not a sweep spec"),
])
def test_other_inputs_that_are_not_regular_files_never_hang(tmp_path, fifo, args, needle):
    args = [a.replace("{tmp}", str(tmp_path)).replace("{fifo}", str(fifo)) for a in args]
    one_line_error(cli(*args, timeout=30), needle)


def test_a_deeply_nested_yaml_is_a_config_error_in_every_yaml_reader(tmp_path):
    from accelsim._yaml import MAX_DEPTH

    deep = tmp_path / "deep.yaml"
    for text in ("sm_count: " + "[" * 5000 + "]" * 5000,
                 "sm_count: " + "{a: " * 5000 + "1" + "}" * 5000,
                 "".join("  " * i + f"k{i}:\n" for i in range(2000)),
                 "sm_count: " + "[" * 1_000_000):  # libyaml's composer would overflow the C stack
        deep.write_text(text)
        one_line_error(cli("config", "check", deep), str(deep), f"more than {MAX_DEPTH} levels")
        with pytest.raises(accelsim.ConfigError, match="levels deep") as err:
            accelsim.load_config(deep)
        assert err.value.line is not None
    from accelsim.correlation.metricmap import load_metric_map
    from accelsim.sweep.spec import load_spec as load_sweep_spec
    from accelsim.tune import load_spec

    for reader in (load_spec, load_metric_map, load_sweep_spec):
        with pytest.raises(accelsim.ConfigError, match="levels deep"):
            reader(deep)


def test_yaml_aliases_that_loop_or_explode_are_config_errors(tmp_path):
    """An alias inside the collection it names, and a 'billion laughs' of
    aliases of aliases (whose repr in an error message never ended)."""
    from accelsim._yaml import MAX_VALUES

    bad = tmp_path / "gpu.yaml"
    bad.write_text("base: QV100\nexec_units: &a [*a]\n")
    with pytest.raises(accelsim.ConfigError, match="alias refers to a list or mapping") as err:
        accelsim.load_config(bad)
    assert err.value.line == 2
    anchors = ["&a0 [1,1,1,1,1,1,1,1,1,1]"] + [
        f"&a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bad.write_text("base: QV100\ndescription: [" + ", ".join(anchors) + "]\nsm_count: *a8\n")
    one_line_error(cli("config", "check", bad, timeout=60), f"more than {MAX_VALUES:,} values")
    fine = tmp_path / "fine.yaml"  # shared values, used a few times: still fine
    fine.write_text("base: QV100\nl1d_size: &s 64 KiB\nshmem_size: *s\n")
    assert accelsim.load_config(fine)["shmem_size"] == 65536


def test_yaml_errors_keep_their_line_numbers(tmp_path):
    from accelsim._yaml import loader_name

    assert loader_name() in ("libyaml", "pure-Python")
    bad = tmp_path / "gpu.yaml"
    bad.write_text("base: QV100\nsm_count: 12\nl1d_sizee: 4\n")
    with pytest.raises(accelsim.ConfigError) as err:
        accelsim.load_config(bad)
    assert err.value.line == 3
    bad.write_text("base: QV100\nsm_count: [1, 2\n")
    with pytest.raises(accelsim.ConfigError, match="not valid YAML") as err:
        accelsim.load_config(bad)
    assert err.value.line is not None
    bad.write_text("base: QV100\nsm_count: 4\nname: x\x00\n")  # a reader error: no mark
    with pytest.raises(accelsim.ConfigError, match=r"gpu.yaml:3: not valid YAML") as err:
        accelsim.load_config(bad)
    assert err.value.line == 3


@pytest.mark.parametrize("args, needle", [
    (["bench", "--case", "nosuch"], "unknown bench case 'nosuch'; the cases are: bfs"),
    (["bench", "--sweep", "--engine", "nosuch"], "unknown sweep engine(s) 'nosuch'"),
])
def test_bench_names_nothing_unknown(args, needle):
    line = one_line_error(cli(*args), needle)
    assert "startup" in line or "serial" in line  # the list of what exists


def test_sweep_outputs_onto_the_wrong_kind_of_path(tmp_path, vecadd):
    spec = tmp_path / "s.yaml"
    spec.write_text(f"workloads: {{v: {vecadd}}}\nconfig: QV100\ngrid: {{icnt_latency: [4, 8]}}\n")
    taken = tmp_path / "taken"
    taken.write_text("")
    one_line_error(cli("sweep", spec, "--out", taken), "--out", "exists and is not a folder")
    one_line_error(cli("sweep", spec, "--csv", tmp_path), "--csv", "is a folder")
    one_line_error(cli("sweep", spec, "--csv", tmp_path / "no" / "t.csv"), "does not exist")
    assert not (tmp_path / "s.sweep").exists()  # refused before anything ran
    with pytest.raises(accelsim.ConfigError, match="exists and is not a folder"):
        accelsim.sweep(vecadd, "QV100", {"icnt_latency": [4]}, out=taken, engine="serial")


@pytest.mark.parametrize("args", [["config", "import", "{g}", "-o", "{tmp}"],
                                  ["tune", "import", "{g}", "--out", "{tmp}"],
                                  ["microbench", "l1_lat", "--keep-traces", "{g}"]])
def test_other_outputs_onto_the_wrong_kind_of_path(tmp_path, args):
    g = tmp_path / "gpgpusim.config"
    g.write_text("-gpgpu_n_clusters 4\n")
    args = [a.replace("{tmp}", str(tmp_path)).replace("{g}", str(g)) for a in args]
    one_line_error(cli(*args), "error:")
