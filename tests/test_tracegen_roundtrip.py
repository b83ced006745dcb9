"""The trace writer against the reader: every layout, address encoding and
compression gives the same decoded records."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import open_trace
from accelsim.trace import FLAG_HAS_ADDRS, FLAG_PRED_OFF
from accelsim.tracegen import (Inst, Kernel, Memcpy, ThreadBlock, access_bytes, choose_mode,
                               write_workload)
from accelsim.tracegen.examples import vecadd_kernel, write_vecadd


def all_blocks(listing) -> np.ndarray:
    kernel = next(iter(open_trace(listing)))
    return np.concatenate([records for _, records in kernel.blocks()])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return all_blocks(write_vecadd(tmp_path_factory.mktemp("ref"), n=1000, block=96))


def strip_lines(records):
    out = records.copy()
    out["line"] = 0
    out["imm"] = 0
    return out


@pytest.mark.parametrize("options", [
    {"address_mode": 0}, {"address_mode": 1}, {"address_mode": 2},
    {"compression": "gz"}, {"compression": "xz"},
    {"version": 3}, {"version": 4}, {"version": "1.2"},
    {"version": 1, "interleave": True}, {"lineinfo": True},
], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_variants_decode_identically(tmp_path, reference, options):
    got = all_blocks(write_vecadd(tmp_path, n=1000, block=96, **options))
    if options.get("version") in (3, 4, 1, "1.2"):  # no immediates before v5
        assert np.array_equal(strip_lines(got), strip_lines(reference))
    else:
        assert np.array_equal(got, reference)


def test_vecadd_counts_and_masks(tmp_path):
    trace = open_trace(write_vecadd(tmp_path, n=1000, block=96))
    k = trace.kernels.iloc[0]
    assert k.thread_blocks == 11 and tuple(k.grid) == (11, 1, 1)
    # in-range threads count in 14 instructions (not the first EXIT), the 56 beyond n in 6
    assert k.thread_instructions == 1000 * 14 + 56 * 6
    last = trace.kernel(1).block(10)
    exits = last[last["opcode"] == trace.kernel(1).opcodes.index("EXIT")]
    assert (exits["mask"][exits["mask"] != 0] != 0xFFFFFFFF).any()  # partial masks
    assert trace.totals()["memcpy_htod"] == 2


def test_vecadd_addresses(tmp_path):
    kernel = open_trace(write_vecadd(tmp_path, n=256, block=64, address_mode=2)).kernel(1)
    recs = kernel.block(1)
    ldg = recs[(recs["flags"] & FLAG_HAS_ADDRS) != 0]
    assert len(ldg) == 2 * 3  # 2 loads + 1 store per warp, 2 warps
    first = ldg[0]
    assert kernel.opcodes[first["opcode"]] == "LDG"
    assert first["addrs"][0] == 0x00007F4A3C000000 + 4 * 64
    assert np.all(np.diff(first["addrs"].astype(np.int64)) == 4)


def test_tracer_mode_choice():
    full = 0xFFFFFFFF
    assert choose_mode(full, [4 * i for i in range(32)]) == 1
    assert choose_mode(1, [0x100]) == 2            # one lane: base, no deltas
    assert choose_mode(0b101, [0, 8]) == 2         # gap in the lanes
    assert choose_mode(0b11, [0, 100]) == 1
    assert choose_mode(0b111, [0, 4, 12]) == 2     # stride changes
    assert choose_mode(0, []) == 1                 # "1 0x0 0" like the tracer
    assert access_bytes("LDG.E.128.SYS") == 16 and access_bytes("STG.E.U8") == 1


def test_hand_built_kernel(tmp_path):
    warp = [Inst("LDS.U.64", 0b1111, dst=4, srcs=(2,), addrs=[0x7F4A60000000 + 8 * i for i in range(4)]),
            Inst("ATOMG.E.ADD.STRONG.GPU", 0b1, dst=5, srcs=(2, 3), addrs=[0x1000]),
            Inst("BAR.SYNC", 0b1111),
            Inst("NOP", 0),
            Inst("EXIT", 0b1111)]
    k = Kernel(name="k", grid=(1, 1, 1), block=(4, 1, 1), blocks=[ThreadBlock(warps=[warp])])
    listing = write_workload(tmp_path, [Memcpy(0x1000, 64), k], version=5)
    kernel = open_trace(listing).kernel(1)
    recs = kernel.block(0)
    names = [kernel.opcodes[o] for o in recs["opcode"]]
    assert names == ["LDS", "ATOMG", "BAR", "NOP", "EXIT"]
    spaces = [kernel.mem_spaces[s] for s in recs["mem_space"]]
    assert spaces == ["shared", "global", "none", "none", "none"]
    assert list(recs["access_bytes"][:2]) == [8, 4]
    assert recs["flags"][3] & FLAG_PRED_OFF
    assert [kernel.units[u] for u in recs["unit"]] == ["mem", "mem", "barrier", "nop", "exit"]


def test_vecadd_generator_validates():
    with pytest.raises(ValueError):
        vecadd_kernel(0)
    with pytest.raises(ValueError):
        Inst("LDG.E", 0b11, addrs=[1, 2, 3]).lane_addresses()
