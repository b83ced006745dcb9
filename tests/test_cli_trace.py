"""``accelsim trace-info`` and ``accelsim example``."""
from __future__ import annotations

import json

from accelsim.cli import main
from accelsim.tracegen.examples import write_vecadd


def test_trace_info_text(tmp_path, capsys):
    listing = write_vecadd(tmp_path, n=4096, block=256)
    assert main(["trace-info", str(listing)]) == 0
    out = capsys.readouterr().out
    assert "_Z6vecAddPKfS0_Pfi" in out
    assert "16 thread blocks, 1,920 warp instructions, 57,344 thread instructions" in out


def test_trace_info_json(tmp_path, capsys):
    write_vecadd(tmp_path, n=4096, block=256)
    assert main(["trace-info", str(tmp_path), "--json", "--mix"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["warp_instructions"] == 1_920
    assert data["kernels"][0]["grid"] == [16, 1, 1]
    assert any(row["opcode"] == "FADD" for row in data["instruction_mix"])


def test_trace_info_error_is_one_line(tmp_path, capsys):
    write_vecadd(tmp_path, n=256, block=64)
    kernel = tmp_path / "kernel-1.traceg"
    kernel.write_text(kernel.read_text().replace("-binary version = 70", "-binary version = 99"))
    assert main(["trace-info", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert f"{kernel}:7: field 'binary version': unsupported binary version 99" in err


def test_trace_info_real(shared, capsys):
    assert main(["trace-info", str(shared / "traces" / "bfs_rodinia31_sm70")]) == 0
    out = capsys.readouterr().out
    assert "16 kernels, 128 thread blocks, 154,839 warp instructions, 1,207,402 thread" in out


def test_example_command(tmp_path, capsys):
    assert main(["example", "--out", str(tmp_path / "ex")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "ex" / "kernelslist.g").is_file()
    assert "1,920 warp instructions" in out and "2 MemcpyHtoD (32,768 bytes)" in out
    # the main job: the workload is simulated and its kernel reported
    import re

    cycles = re.search(r"simulated on QV100: ([\d,]+) cycles", out)
    assert cycles and int(cycles.group(1).replace(",", "")) > 1000
    assert "_Z6vecAddPKfS0_Pfi" in out.split("simulated on")[1]


def test_example_default_temp_folder_is_deleted_and_said_so(tmp_path, capsys):
    # (conftest points the temp folder at tmp_path)
    assert main(["example", "-n", "100", "--block", "64"]) == 0
    out = capsys.readouterr().out
    assert "temporary folder, deleted when this command ends (--out DIR keeps it)" in out
    assert "simulated on QV100" in out
    assert not list(tmp_path.glob("accelsim-example-*"))
