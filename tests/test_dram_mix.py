"""The read/write DRAM twins (accelsim.microbench.dram_mix): what they
access, and that the model's DRAM moves a read/write stream as the V100's
measured one (docs/fidelity.md, "DRAM under reads and writes")."""
from __future__ import annotations

from collections import Counter

import pytest

from accelsim.config import load_config
from accelsim.microbench import dram_mix
from accelsim.microbench.hwdef import HardwareDef


def _accesses(built) -> Counter:
    """(opcode, array index) -> lane accesses, arrays told apart by base."""
    out: Counter = Counter()
    for k in built.commands:
        for b in k.blocks:
            for warp in b.warps:
                for i in warp:
                    if i.addrs and (i.opcode.startswith("LDG") or i.opcode.startswith("STG.E.128")
                                    or i.opcode.startswith("STG.E.64")):
                        out[i.opcode.split(".")[0], (i.addrs[0] - dram_mix.sass.DATA_BASE) // (2 << 20)] += len(i.addrs)
    return out


@pytest.fixture(scope="module")
def small_hw():
    hw = HardwareDef.from_config(load_config("TITANV"))
    return hw.__class__(**{**hw.__dict__, "sm_count": 2, "l2_bytes": 64 * 1024})


def test_suite_mem_bw_reads_five_arrays_and_writes_a_sixth_once(small_hw):
    """Every float4 of the five input arrays is loaded once and every one of
    the output array stored once per pass: 2 x L2 each, 2 blocks of 1024
    threads per SM, the last grid step only partly live."""
    b = dram_mix.suite_mem_bw(small_hw)
    n = 2 * small_hw.l2_bytes // 16
    assert b.work == 6 * n * 16 and b.commands[0].grid == (4, 1, 1)
    loads = sum(c for (op, _), c in _accesses(b).items() if op == "LDG")
    stores = sum(c for (op, _), c in _accesses(b).items() if op == "STG")
    assert loads == 5 * n and stores == n
    assert dram_mix.suite_mem_bw(small_hw, 2).work == 2 * b.work


def test_dram_rw_bw_work_is_every_load_and_store(small_hw):
    b = dram_mix.dram_rw_bw(small_hw, 4, reads=2, threads=256)
    threads = small_hw.sm_count * 256
    acc = _accesses(b)
    assert sum(c for (op, _), c in acc.items() if op == "LDG") == 4 * 2 * threads
    assert sum(c for (op, _), c in acc.items() if op == "STG") == 4 * threads
    assert b.work == 4 * threads * 8 * 3
