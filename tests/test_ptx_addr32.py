"""A 32-bit register as the base of a .shared address wraps at 2^32, as
the hardware's 32-bit shared addressing does: nvcc computes offsets such as
base - 64 and then adds +68 in the instruction (Rodinia nw does), which
must land at base + 4, not 4 GiB further."""
from __future__ import annotations

import numpy as np

PTX = """
.version 7.0
.target sm_75
.address_size 64
.visible .entry wrap(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[64];
  mov.u32 %r1, buf;
  mov.u32 %r2, 42;
  st.shared.u32 [%r1+8], %r2;
  add.s32 %r3, %r1, -16;
  ld.shared.u32 %r4, [%r3+24];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r4;
  ret;
}
"""


def test_shared_address_from_a_32_bit_register_wraps():
    from accelsim import Device
    from accelsim.ptx import Module

    dev = Device("QV100")
    out = dev.zeros(1, np.uint32)
    Module(PTX, name="wrap.ptx").get_function("wrap")[1, 32](out)
    assert out.copy_to_host()[0] == 42
