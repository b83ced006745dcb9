"""PTX mode calls through function pointers: `call` via a register with a
.callprototype, function addresses taken with mov or in variable
initialisers (tables of function pointers), lanes of one warp calling
different functions (each target runs in turn, the warp reconverges after
the call), and the clear errors (a value that is no function's address,
parameters that do not match, recursion through a pointer)."""
from __future__ import annotations

import numpy as np
import pytest

from accelsim import PtxError
from accelsim.ptx import Device, Module

HEAD = """
.version 7.0
.target sm_75
.address_size 64
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) square(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) negate(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  neg.s32 %r2, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.global .align 8 .u64 table[3] = {twice, square, negate};
"""

KERNEL = """
.visible .entry k(.param .u64 a, .param .u32 pick)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u32 %r6, [pick];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  {SELECT}
  {
  .param .b32 p0;
  st.param.b32 [p0], %r2;
  .param .b32 r0;
  proto : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (r0), %rd5, (p0), proto;
  ld.param.b32 %r5, [r0];
  }
  add.s32 %r5, %r5, 1000;
  st.global.u32 [%rd3], %r5;
  ret;
}
"""

# lane i calls table[(i + pick) % 3]
FROM_TABLE = """rem.u32 %r3, %r1, 3;
  add.u32 %r3, %r3, %r6;
  rem.u32 %r3, %r3, 3;
  mul.wide.u32 %rd4, %r3, 8;
  mov.u64 %rd6, table;
  add.s64 %rd6, %rd6, %rd4;
  ld.global.u64 %rd5, [%rd6];"""


def run(select: str, n=32, pick=0):
    dev = Device("QV100")
    a = dev.to_device(np.arange(n, dtype=np.int32) - 7)
    Module(HEAD + KERNEL.replace("{SELECT}", select), name="fp.ptx").get_function("k")[1, n](a, np.uint32(pick))
    res = dev.synchronize()
    return a.copy_to_host(), res


@pytest.mark.parametrize("pick", [0, 1, 2])
def test_divergent_calls_through_a_table(pick):
    got, res = run(FROM_TABLE, n=64, pick=pick)
    x = np.arange(64) - 7
    which = (np.arange(64) % 3 + pick) % 3
    want = np.choose(which, [2 * x, x * x, -x]) + 1000  # the add after the call: every lane reconverged
    np.testing.assert_array_equal(got, want)
    assert res.completed and (res.kernels["warp_instructions"] > 0).all()


def test_address_taken_with_mov():
    got, _ = run("mov.u64 %rd5, square;")
    x = np.arange(32) - 7
    np.testing.assert_array_equal(got, x * x + 1000)


@pytest.mark.parametrize("select, match", [
    ("mov.u64 %rd5, 12345;", "calls through 12345, which is not the address of a .func"),
    ("mov.u64 %rd5, table;", "which is not the address of a .func"),
])
def test_a_value_that_is_no_function_is_a_fault(select, match):
    with pytest.raises(PtxError, match=match):
        run(select)


def test_mismatched_parameters_and_recursion_are_refused():
    two_params = HEAD + """
.func (.param .b32 r) add2(.param .b32 x, .param .b32 y)
{
  .reg .b32 %r<2>;
  st.param.b32 [r], 0;
  ret;
}
""" + KERNEL.replace("{SELECT}", "mov.u64 %rd5, add2;")
    dev = Device("QV100")
    Module(two_params, name="fp.ptx").get_function("k")[1, 32](dev.zeros(32, np.int32), np.uint32(0))
    with pytest.raises(PtxError, match="parameters do not match"):
        dev.synchronize()
    recursive = """
.version 7.0
.target sm_75
.address_size 64
.func self_call()
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, self_call;
  {
  proto : .callprototype _ ();
  call %rd1, (), proto;
  }
  ret;
}
.visible .entry k()
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, self_call;
  {
  proto : .callprototype _ ();
  call %rd1, (), proto;
  }
  ret;
}
"""
    Module(recursive, name="rec.ptx").get_function("k")[1, 32](device=dev)
    with pytest.raises(PtxError, match="recursive call through a function pointer"):
        dev.synchronize()
