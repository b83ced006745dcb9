"""A one-instruction-under-test PTX kernel for the texture and surface
tests: thread i of n reads its four coordinate words and runs a body."""
from __future__ import annotations


def lane_kernel(body: str) -> str:
    """PTX of `.entry k(.param .u64 h, .param .u64 c, .param .u64 o, .param
    .u32 n)`: thread i < n runs `body` with %rd1 = h, %rd3 = o, %r5 = i,
    %rd4 = 16 * i and %r6..%r9 the four b32 words of row i of c."""
    return f"""
.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 h, .param .u64 c, .param .u64 o, .param .u32 n)
{{
  .reg .pred %p;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [h];
  ld.param.u64 %rd2, [c];
  ld.param.u64 %rd3, [o];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p, %r5, %r1;
  @%p bra DONE;
  mul.wide.s32 %rd4, %r5, 16;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.v4.b32 {{%r6, %r7, %r8, %r9}}, [%rd5];
{body}
DONE:
  ret;
}}
"""
