"""Dependent-operation latency: one thread runs a chain where every
instruction reads the previous one's result (``a = a * b + c`` unrolled, as
the real benchmark's loop compiles). Cycles per chain step = latency."""
from __future__ import annotations

from accelsim.microbench import sass
from accelsim.microbench.alu_ops import op_for
from accelsim.microbench.benchmark import Built
from accelsim.tracegen import Inst, Kernel, ThreadBlock

ONE = 0x1
# The suite's latency loop has 4 dependent instructions per iteration and a
# run-time trip count; nvcc unrolls it 4x (checked on the PTX it emits for
# accelsim/microbench/cuda/alu.cu), so the counter/compare/branch follow every 16.
LOOP_BODY = 16
ACC, B, C, T0, T1, OUT, COUNTER = 2, 4, 6, 8, 10, 12, 14  # even numbers: FP64 pairs fit


def chain_thread(op_name: str, reps: int, loop_body: int = 0,
                 function: str | None = None) -> list[Inst]:
    """``loop_body``: chain steps per compiled loop body; the loop's counter,
    compare and branch follow every ``loop_body`` steps (0: no loop).
    ``function``: the MUFU function of an ``sfu`` chain (default sqrt)."""
    op = op_for(op_name, function)
    body = [sass.param(ONE, ACC), sass.param(ONE, B), sass.param(ONE, C), sass.param(ONE, OUT),
            sass.clock(ONE, T0)]
    for k in range(reps):
        body.append(op.chained(ONE, ACC, (B, C)))
        if loop_body and (k + 1) % loop_body == 0:
            body += sass.loop_tail(ONE, COUNTER)
    body += [sass.clock(ONE, T1),
             Inst("IADD3", ONE, dst=T1, srcs=(T1, T0, sass.RZ)),
             sass.store_word(ONE, OUT, T1, [sass.OUT_BASE]),
             sass.store_word(ONE, OUT, ACC, [sass.OUT_BASE + 8]),
             Inst("EXIT", ONE)]
    return body


def alu_latency(op_name: str, hw, reps: int, *, loop_body: int = 0,
                function: str | None = None) -> Built:
    k = Kernel(name=f"_Z7{op_name}_latPjPf", grid=(1, 1, 1), block=(1, 1, 1), nregs=16,
               blocks=[ThreadBlock(coord=(0, 0, 0), warps=[chain_thread(op_name, reps, loop_body, function)])])
    return Built(commands=[k], work=reps)
