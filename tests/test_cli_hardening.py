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
