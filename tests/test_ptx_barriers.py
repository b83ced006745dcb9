"""bar.sync / barrier.sync with a barrier id and thread count, bar.arrive,
bar.red (.popc/.and/.or) against NumPy, and thread-accurate arrival: a warp
whose lanes diverged around a barrier arrives once all its non-exited lanes
have executed it."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module
from ptx_record_util import first_warp_opcodes

HEAD = ".version 8.0\n.target sm_75\n.address_size 64\n"

# Warp 1's even lanes store to shared memory before their bar.sync, its odd
# lanes reach a bar.sync on another path first; warp 0 reads after the
# barrier. Counting warp 1 arrived with its odd lanes alone would let warp 0
# read before the even lanes stored.
SPLIT = HEAD + """
.visible .entry split(.param .u64 p_out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sh[32];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, sh;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L_reader;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra $L_odd;
  sub.u32 %r3, %r1, 32;
  shl.b32 %r3, %r3, 2;
  add.u32 %r3, %r5, %r3;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  bra.uni $L_done;
$L_odd:
  barrier.sync 0;
  bra.uni $L_done;
$L_reader:
  bar.sync 0;
  shl.b32 %r4, %r1, 2;
  add.u32 %r4, %r5, %r4;
  ld.shared.u32 %r6, [%r4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
$L_done:
  ret;
}
"""


def test_diverged_warp_arrives_once_all_its_lanes_did():
    dev = Device("QV100")
    out = dev.zeros(32, np.uint32)
    Module(SPLIT).get_function("split")[1, 64](out)
    res = dev.synchronize()
    assert res.completed
    expect = np.where(np.arange(32) % 2 == 0, np.arange(32) + 32, 0).astype(np.uint32)
    np.testing.assert_array_equal(out.copy_to_host(), expect)


# Two pairs of warps, each pair exchanging through shared memory on its own
# barrier (1 or 2) with a count of 64 threads; then bar.arrive: warp 0
# produces for warp 1 (bar.arrive 3, 64 / bar.sync 3, 64).
PAIRS = HEAD + """
.visible .entry pairs(.param .u64 p_out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sh[160];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r5, sh;
  shl.b32 %r2, %r1, 2;
  add.u32 %r3, %r5, %r2;
  mul.lo.u32 %r4, %r1, 3;
  st.shared.u32 [%r3], %r4;
  shr.u32 %r6, %r1, 6;
  add.u32 %r6, %r6, 1;
  bar.sync %r6, 64;
  xor.b32 %r7, %r1, 32;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r5, %r7;
  ld.shared.u32 %r8, [%r7];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 bra $L_done;
  setp.ge.u32 %p2, %r1, 32;
  @%p2 bra $L_consumer;
  add.u32 %r9, %r1, 1000;
  st.shared.u32 [%r3+512], %r9;
  bar.arrive 3, 64;
  bra.uni $L_done;
$L_consumer:
  bar.sync 3, 64;
  ld.shared.u32 %r10, [%r7+512];
  st.global.u32 [%rd3+512], %r10;
$L_done:
  ret;
}
"""


def test_named_barriers_with_thread_counts_and_arrive():
    dev = Device("QV100")
    out = dev.zeros(256, np.uint32)
    Module(PAIRS).get_function("pairs")[1, 128](out)
    res = dev.synchronize()
    assert res.completed
    got = out.copy_to_host()
    t = np.arange(128)
    np.testing.assert_array_equal(got[:128], (t ^ 32) * 3)
    np.testing.assert_array_equal(got[128 + 32:128 + 64], np.arange(32) + 1000)


def _bar_kernel(body: str) -> str:
    return HEAD + ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n" + body + "\nret;\n}\n"


@pytest.mark.parametrize("body,message", [
    ("bar.sync 0, 48;", "multiple of 32"),
    ("bar.sync 16;", "not 0..15"),
    ("bar.sync 0, 128;", "up to the block"),
    # warp 0 waits on barrier 1 for 64 threads, warp 1 on barrier 0 for all: neither completes
    ("mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra $A;\nbar.sync 0;\nbra.uni $B;\n"
     "$A:\nbar.sync 1, 64;\n$B:", "cannot complete"),
])
def test_barrier_errors_name_the_barrier(body, message):
    dev = Device("QV100")
    Module(_bar_kernel(body), name="bars.ptx").get_function("k")[1, 64](device=dev)
    with pytest.raises(PtxError, match=message) as ei:
        dev.synchronize()
    assert "kernel k" in str(ei.value) and ei.value.line is not None


# bar.red: each thread's predicate (x[i] > t, and its negation for .and)
# reduced over the block: popc, and, or; then the same on barrier 1 with a
# count of 64 threads, which two warps of a 4-warp block use while the other
# two use barrier 2 (each pair gets its own count).
RED = HEAD + """
.visible .entry red(.param .u64 p_x, .param .u64 p_out, .param .u32 p_t)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p_x];
  ld.param.u64 %rd2, [p_out];
  ld.param.u32 %r1, [p_t];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ctaid.x;
  mad.lo.s32 %r5, %r4, %r3, %r2;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
  setp.gt.u32 %p1, %r6, %r1;
  bar.red.popc.u32 %r7, 0, %p1;
  barrier.red.and.aligned.pred %p2, 0, !%p1;
  bar.cta.red.or.pred %p3, 0, %p1;
  selp.u32 %r8, 1, 0, %p2;
  selp.u32 %r9, 1, 0, %p3;
  shr.u32 %r10, %r2, 6;
  setp.eq.u32 %p4, %r10, 0;
  @%p4 bra $L_low;
  bar.red.popc.u32 %r11, 2, 64, %p1;
  bra.uni $L_store;
$L_low:
  bar.red.popc.u32 %r11, 1, 64, %p1;
$L_store:
  mul.wide.u32 %rd5, %r5, 16;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.u32 [%rd6], {%r7, %r8, %r9, %r11};
  ret;
}
"""


@pytest.mark.parametrize("threads,t", [(128, 50), (128, 99), (128, -1), (128, 0)])
def test_bar_red_popc_and_or_match_numpy(threads, t):
    blocks = 3
    rng = np.random.default_rng(threads + t)
    x = rng.integers(0, 100, blocks * threads).astype(np.uint32)
    dev = Device("QV100")
    xd, out = dev.to_device(x), dev.zeros((blocks * threads, 4), np.uint32)
    Module(RED).get_function("red")[blocks, threads](xd, out, np.uint32(t & 0xFFFFFFFF))
    assert dev.synchronize().completed
    got = out.copy_to_host()
    p = (x > np.uint32(t & 0xFFFFFFFF)).reshape(blocks, threads)
    half = np.arange(threads) // 64
    for b in range(blocks):
        np.testing.assert_array_equal(got[b * threads:(b + 1) * threads, 0], p[b].sum())
        np.testing.assert_array_equal(got[b * threads:(b + 1) * threads, 1], int((~p[b]).all()))
        np.testing.assert_array_equal(got[b * threads:(b + 1) * threads, 2], int(p[b].any()))
        pairs = np.array([p[b][half == h].sum() for h in half])
        np.testing.assert_array_equal(got[b * threads:(b + 1) * threads, 3], pairs)


def test_bar_red_records_a_barrier_and_its_result_read():
    dev = Device("QV100")
    x, out = dev.to_device(np.arange(128, dtype=np.uint32)), dev.zeros((128, 4), np.uint32)
    Module(RED).get_function("red")[1, 128](x, out, np.uint32(5))
    ops = first_warp_opcodes(dev)
    assert ops.count("BAR") == 4 and ops.count("B2R") == 4  # BAR.RED + B2R.RESULT, as ptxas emits
    res = dev.synchronize()
    assert res.completed and res.kernels["cycles"].iloc[0] > 0
    assert (out.copy_to_host()[:, 0] == 122).all()


PARTIAL = RED.replace("@%p4 bra $L_low;", "bra.uni $L_low;").replace("bar.red.popc.u32 %r11, 1, 64, %p1;",
                                                                   "bar.red.popc.u32 %r11, 1, %p1;")


def test_bar_red_in_a_block_with_a_partial_warp():
    x = np.arange(3 * 80, dtype=np.uint32) % 7
    dev = Device("QV100")
    xd, out = dev.to_device(x), dev.zeros((3 * 80, 4), np.uint32)
    Module(PARTIAL).get_function("red")[3, 80](xd, out, np.uint32(3))
    assert dev.synchronize().completed
    got = out.copy_to_host().reshape(3, 80, 4)
    p = (x > 3).reshape(3, 80)
    np.testing.assert_array_equal(got[:, :, 0], np.repeat(p.sum(1)[:, None], 80, 1))
    np.testing.assert_array_equal(got[:, :, 3], np.repeat(p.sum(1)[:, None], 80, 1))
    np.testing.assert_array_equal(got[:, :, 2], 1)
    np.testing.assert_array_equal(got[:, :, 1], 0)


def test_bar_red_with_more_warps_than_its_count_is_an_error():
    dev = Device("QV100")
    x, out = dev.to_device(np.zeros(192, np.uint32)), dev.zeros((192, 4), np.uint32)
    Module(RED, name="red.ptx").get_function("red")[1, 192](x, out, np.uint32(0))
    with pytest.raises(PtxError, match="than its thread count"):
        dev.synchronize()


def test_bar_red_mixed_with_bar_sync_on_one_barrier_is_an_error():
    body = ("mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra $A;\nbar.sync 0;\nbra.uni $B;\n"
            "$A:\nbar.red.popc.u32 %r2, 0, %p1;\n$B:")
    dev = Device("QV100")
    Module(_bar_kernel(body), name="red.ptx").get_function("k")[1, 64](device=dev)
    with pytest.raises(PtxError, match="bar.sync and bar.red"):
        dev.synchronize()
