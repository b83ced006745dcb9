"""cp.async (.ca/.cg, 4/8/16 bytes, the src-size zero-fill and ignore-src
forms) with commit_group / wait_group / wait_all: a copy lands when a wait
covers its group (the emulator's documented choice, docs/ptx.md), so reads
before the wait see the old bytes; checked against NumPy. The timing model
gets LDGSTS / LDGDEPBAR / DEPBAR as ptxas emits for sm_80."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from ptx_record_util import first_warp_opcodes

HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"
SENTINEL = 0xDEADBEEF

PIPE = HEAD + """
.visible .entry pipe(.param .u64 p_x, .param .u64 p_y, .param .u64 p_z, .param .u64 p_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .shared .align 16 .b8 sh[3584];
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_y];
  ld.param.u64 %rd3, [p_z];
  ld.param.u64 %rd4, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  cvta.to.global.u64 %rd4, %rd4;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sh;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  shl.b32 %r5, %r1, 3;
  add.u32 %r6, %r2, %r5;
  add.u32 %r6, %r6, 512;
  shl.b32 %r7, %r1, 4;
  add.u32 %r8, %r2, %r7;
  add.u32 %r8, %r8, 1536;
  mov.u32 %r9, 0xdeadbeef;
  st.shared.u32 [%r4], %r9;
  st.shared.u32 [%r8], %r9;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  cp.async.ca.shared.global [%r4], [%rd6], 4;
  cp.async.commit_group;
  mul.wide.u32 %rd7, %r1, 16;
  add.s64 %rd8, %rd2, %rd7;
  rem.u32 %r10, %r1, 17;
  cp.async.cg.shared.global.L2::128B [%r8], [%rd8], 16, %r10;
  cp.async.commit_group;
  ld.shared.u32 %r11, [%r4];
  cp.async.wait_group 1;
  ld.shared.u32 %r12, [%r4];
  ld.shared.u32 %r13, [%r8];
  cp.async.wait_group 0;
  ld.shared.v4.u32 {%r14, %r15, %r16, %r17}, [%r8];
  and.b32 %r18, %r1, 1;
  setp.eq.u32 %p1, %r18, 1;
  mul.wide.u32 %rd9, %r1, 8;
  add.s64 %rd10, %rd3, %rd9;
  cp.async.ca.shared::cta.global [%r6], [%rd10], 8, %p1;
  cp.async.wait_all;
  ld.shared.v2.u32 {%r19, %r20}, [%r6];
  mul.wide.u32 %rd11, %r1, 48;
  add.s64 %rd12, %rd4, %rd11;
  st.global.v4.u32 [%rd12], {%r11, %r12, %r13, %r14};
  st.global.v4.u32 [%rd12+16], {%r15, %r16, %r17, %r19};
  st.global.u32 [%rd12+32], %r20;
  ret;
}
"""


def _run(config="A100", threads=128):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2**32, threads, dtype=np.uint32)
    y = rng.integers(0, 2**32, 4 * threads, dtype=np.uint32)
    z = rng.integers(0, 2**64, threads, dtype=np.uint64)
    dev = Device(config)
    out = dev.zeros((threads, 12), np.uint32)
    Module(PIPE, name="pipe.ptx").get_function("pipe")[1, threads](dev.to_device(x), dev.to_device(y),
                                                                    dev.to_device(z), out)
    return dev, x, y, z, out


def test_copies_land_at_their_group_wait_with_zero_fill():
    dev, x, y, z, out = _run()
    assert dev.synchronize().completed
    got = out.copy_to_host()
    t = np.arange(128)
    np.testing.assert_array_equal(got[:, 0], SENTINEL)      # before any wait: the old bytes
    np.testing.assert_array_equal(got[:, 1], x)             # wait_group 1: the first group landed
    np.testing.assert_array_equal(got[:, 2], SENTINEL)      # ... the second not yet
    src = y.view(np.uint8).reshape(128, 16).copy()
    src[np.arange(16)[None, :] >= (t % 17)[:, None]] = 0    # src-size bytes, the rest zero
    np.testing.assert_array_equal(got[:, 3:7], src.view(np.uint32))
    want_z = np.where(t % 2 == 1, 0, z)                     # ignore-src: odd threads get zeros
    np.testing.assert_array_equal(got[:, 7:9].copy().view(np.uint64)[:, 0], want_z)


def test_timing_records_are_ldgsts_ldgdepbar_depbar():
    dev, *_ = _run()
    ops = first_warp_opcodes(dev, version=80)
    assert ops.count("LDGSTS") == 3 and ops.count("LDGDEPBAR") == 3 and ops.count("DEPBAR") == 3
    res = dev.synchronize()
    assert res.completed and res.kernels["cycles"].iloc[0] > 0


def test_before_sm80_the_isa_has_no_ldgsts():
    dev, *_ = _run("QV100")
    with pytest.raises(PtxError, match="LDGSTS"):
        dev.synchronize()


def _copy_kernel(line: str) -> str:
    return HEAD + (".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                   ".shared .align 16 .b8 sh[64];\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n"
                   "mov.u32 %r1, sh;\nmov.u32 %r2, 17;\n" + line + "\ncp.async.wait_all;\nret;\n}\n")


@pytest.mark.parametrize("line,message", [
    ("cp.async.ca.shared.global [%r1], [%rd1], 12;", "must be 4, 8 or 16"),
    ("cp.async.cg.shared.global [%r1], [%rd1], 8;", "cp.async.cg copies 16 bytes"),
    ("cp.async.ca.shared.global [%r1], [%rd1], %r2;", "must be 4, 8 or 16"),
])
def test_bad_cp_async_forms_are_refused_when_parsed(line, message):
    with pytest.raises(PtxError, match=message):
        Module(_copy_kernel(line), name="bad.ptx")


@pytest.mark.parametrize("line,message", [
    ("cp.async.ca.shared.global [%r1], [%rd1], 16, %r2;", "src-size 17 is larger"),
    ("cp.async.ca.shared.global [%r1+4], [%rd1], 8;", "misaligned"),
    ("cp.async.ca.shared.global [%r1+64], [%rd1], 4;", "out of bounds"),
    ("cp.async.ca.shared.global [%r1], [%rd1+64], 4;", "out of bounds"),
])
def test_bad_copies_fault_when_issued(line, message):
    dev = Device("A100")
    buf = dev.zeros(16, np.uint32)
    Module(_copy_kernel(line), name="bad.ptx").get_function("k")[1, 32](buf)
    with pytest.raises(PtxError, match=message):
        dev.synchronize()
