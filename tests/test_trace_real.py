"""Acceptance on the real NVBit traces of ../shared/data (skipped if absent)."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import open_trace
from accelsim.trace import FLAG_HAS_ADDRS, FLAG_PRED_OFF, RECORD_DTYPE


@pytest.fixture
def bfs(shared):
    return open_trace(shared / "traces" / "bfs_rodinia31_sm70")


def test_bfs_totals(bfs):
    t = bfs.totals()
    assert (t["kernels"], t["thread_blocks"]) == (16, 128)
    assert t["warp_instructions"] == 154_839
    assert t["thread_instructions"] == 1_207_402
    k1 = bfs.kernels.iloc[0]
    assert (k1.id, k1.warp_instructions, k1.thread_instructions) == (1, 1_789, 41_210)


def test_bfs_kernels_frame(bfs):
    df = bfs.kernels
    assert list(df.columns) == ["id", "name", "grid", "block", "shmem", "nregs", "stream",
                                "binary_version", "thread_blocks", "warp_instructions",
                                "thread_instructions", "path"]
    assert list(df.id) == list(range(1, 17))
    assert set(df.binary_version) == {70}
    assert df.name[0] == "_Z6KernelP4NodePiPbS2_S2_S1_i"


def test_bfs_commands(bfs):
    cmds = bfs.commands
    memcpy = cmds[cmds.kind == "memcpy_htod"]
    assert len(memcpy) == 14 and len(cmds[cmds.kind == "kernel"]) == 16
    first = memcpy.iloc[0]
    assert (first.line, first.address, first.bytes) == (1, 0x00007F7393700000, 32768)


def test_bfs_block_records(bfs):
    k = bfs.kernel(1)
    recs = k.block(0)
    assert recs.dtype == RECORD_DTYPE
    assert len(recs) == sum(len(r) for _, r in [(0, recs)])
    assert np.all(np.diff(recs["warp"].astype(int)) >= 0)  # grouped by warp
    first = recs[0]  # 0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0
    assert (first["pc"], first["mask"], first["dst"]) == (0, 0xFFFFFFFF, 2)
    assert list(first["src"]) == [256, 256, 0, 0]
    assert k.opcodes[first["opcode"]] == "IMAD" and k.units[first["unit"]] == "int"
    shfl = recs[1]
    assert shfl["flags"] & FLAG_PRED_OFF
    ldg = recs[(recs["flags"] & FLAG_HAS_ADDRS) != 0][0]  # LDG.E.U8.SYS ... 1 1 0x7f7393720000 1
    assert ldg["access_bytes"] == 1 and k.mem_spaces[ldg["mem_space"]] == "global"
    assert ldg["addrs"][0] == 0x7F7393720000 and ldg["addrs"][31] == 0x7F7393720000 + 31
    again = k.block(0)  # going back rewinds
    assert np.array_equal(again, recs)
    assert np.array_equal(k.block(-1), k.block(7))


def test_bfs_instruction_mix(bfs):
    mix = bfs.instruction_mix(1)
    assert mix.warp_instructions.sum() == 1_789
    assert mix.thread_instructions.sum() == 41_210
    ldg = mix[mix.opcode == "LDG"].iloc[0]
    assert (ldg.unit, ldg.mem_space) == ("mem", "global")
    total = bfs.instruction_mix()
    assert total.warp_instructions.sum() == 154_839


def test_vecadd_old_layout(shared):
    trace = open_trace(shared / "traces" / "vecadd_sm75_tracer12" / "kernelslist.g")
    t = trace.totals()
    assert (t["thread_blocks"], t["warp_instructions"], t["thread_instructions"]) == (98, 46_941, 1_402_112)
    k = trace.kernel(1)
    assert k.info.tracer_version == 1 and k.info.isa == "sm_75"
    recs = k.block(97)
    assert len(recs) > 0 and k.opcodes[recs["opcode"][-1]] == "EXIT"
    dadd = trace.instruction_mix(1).set_index("opcode").loc["DADD"]
    assert dadd.unit == "dp"


def test_single_kernel_file(shared):
    trace = open_trace(shared / "traces" / "bfs_rodinia31_sm70" / "kernel-9.traceg")
    assert len(trace) == 1 and trace.kernel(9).info.id == 9
