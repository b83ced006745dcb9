"""The Python trace API on generated traces (no shared data needed)."""
from __future__ import annotations

import threading

import pytest

import accelsim
from accelsim import TraceError, open_trace
from accelsim.tracegen.examples import write_vecadd


@pytest.fixture(scope="module")
def vecadd(tmp_path_factory):
    return write_vecadd(tmp_path_factory.mktemp("vecadd"), n=4096, block=256)


def test_open_forms(vecadd):
    folder = vecadd.parent
    for path in (folder, vecadd, folder / "kernel-1.traceg", str(folder)):
        assert open_trace(path).totals()["warp_instructions"] == 1_920
    assert accelsim.open_trace is open_trace


def test_open_missing(tmp_path):
    with pytest.raises(TraceError) as info:
        open_trace(tmp_path / "nope")
    assert info.value.field == "file"
    with pytest.raises(TraceError):
        open_trace(tmp_path)  # empty folder: no kernelslist.g


def test_kernel_lookup(vecadd):
    trace = open_trace(vecadd)
    assert trace.kernel(1).info.grid == (16, 1, 1)
    with pytest.raises(KeyError, match="ids: 1"):
        trace.kernel(5)
    with pytest.raises(IndexError):
        trace.kernel(1).block(16)


def test_counts_cached(vecadd):
    trace = open_trace(vecadd)
    k = trace.kernel(1)
    assert k.counts() is k.counts()
    assert trace.kernels.thread_instructions[0] == 4096 * 14


def test_kernel_info_fields(vecadd):
    info = open_trace(vecadd).kernel(1).info
    assert (info.binary_version, info.tracer_version, info.isa) == (70, 5, "sm_70")
    assert info.warps_per_block == 8 and info.num_blocks == 16
    assert info.shmem_base == 0x00007F4A60000000


def test_blocks_from_threads(vecadd):
    """Readers release the GIL; separate readers in threads agree."""
    trace = open_trace(vecadd)
    results = []

    def work():
        results.append(sum(len(r) for _, r in trace.kernel(1).blocks()))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [1_920] * 4


def test_instruction_mix_columns(vecadd):
    mix = open_trace(vecadd).instruction_mix()
    assert list(mix.columns) == ["opcode", "unit", "mem_space", "warp_instructions",
                                 "thread_instructions"]
    stg = mix.set_index("opcode").loc["STG"]
    assert (stg.unit, stg.mem_space, stg.warp_instructions) == ("mem", "global", 128)


def test_custom_isa_folder(tmp_path, vecadd):
    isa = tmp_path / "isa"
    isa.mkdir()
    (isa / "versions.txt").write_text("70 mini.isa\n")
    (isa / "mini.isa").write_text(
        "# a tiny table with a custom unit class\n"
        "MOV alu\nS2R alu\nIMAD int\nISETP int\nEXIT exit\nLDG mem global load\n"
        "STG mem global store\nFADD fp32pipe\n")
    k = open_trace(vecadd, isa_dir=isa).kernel(1)
    recs = k.block(0)
    fadd = recs[recs["opcode"] == k.opcodes.index("FADD")][0]
    assert k.units[fadd["unit"]] == "fp32pipe"
    (isa / "mini.isa").write_text("MOV alu\nEXIT exit\n")
    with pytest.raises(TraceError) as info:
        open_trace(vecadd, isa_dir=tmp_path / "isa2")
    assert info.value.field == "file"


def test_bad_isa_table(tmp_path):
    from accelsim import _core

    isa = tmp_path / "isa"
    isa.mkdir()
    (isa / "versions.txt").write_text("70 bad.isa\n")
    (isa / "bad.isa").write_text("MOV alu\nLDG mem globl load\n")
    with pytest.raises(TraceError) as info:
        _core.IsaRegistry(str(isa))
    assert (info.value.field, info.value.line) == ("space", 2)


def test_bundled_tables_load():
    from accelsim.trace._isa import isa_registry

    reg = isa_registry()
    assert {35, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90} <= set(reg.versions())
    for v in reg.versions():
        name, path, rows, units = reg.table(v)
        ops = {r[0] for r in rows}
        assert {"EXIT", "BRA", "MOV", "S2R", "LDG" if v >= 35 else "LD"} <= ops, name
        assert units[:12] == ["alu", "sp", "int", "dp", "sfu", "tensor", "branch", "mem", "exit",
                              "barrier", "nop", "tex"]
    assert {"LDGSTS", "DMMA"} <= {r[0] for r in reg.table(80)[2]}
    assert {"HGMMA", "UTMALDG"} <= {r[0] for r in reg.table(90)[2]}


def test_opcode_unit_overrides(vecadd):
    trace = open_trace(vecadd, opcode_units={"FADD": "dp"})
    mix = trace.instruction_mix(1).set_index("opcode")
    assert mix.loc["FADD"].unit == "dp"
    assert open_trace(vecadd).instruction_mix(1).set_index("opcode").loc["FADD"].unit == "sp"
    with pytest.raises(TraceError) as info:
        open_trace(vecadd, opcode_units={"FADDX": "dp"})
    assert info.value.field == "opcode"


def test_positional_access(vecadd):
    trace = open_trace(vecadd)
    assert trace[0] is trace.kernel(1) and trace[-1] is trace[0]
    with pytest.raises(IndexError):
        trace[1]
