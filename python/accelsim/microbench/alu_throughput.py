"""Peak arithmetic throughput per SM: one thread block of the largest size
fills one SM; every thread runs several independent chains interleaved (the
real MaxFlops kernels keep several accumulators for the same reason), so the
scheduler always finds an instruction whose operands are ready and the unit's
initiation interval is the only limit."""
from __future__ import annotations

from accelsim.microbench import sass
from accelsim.microbench.alu_ops import op_for
from accelsim.microbench.benchmark import Built
from accelsim.tracegen import Inst, Kernel, ThreadBlock

B, C, T0, T1, OUT, ACC0 = 2, 4, 6, 8, 10, 12


def independent_warp(op_name: str, mask: int, reps: int, chains: int, first_thread: int,
                     function: str | None = None) -> list[Inst]:
    op = op_for(op_name, function)
    accs = [ACC0 + op.regs * i for i in range(chains)]
    body = [sass.param(mask, B), sass.param(mask, C), sass.param(mask, OUT)]
    body += [sass.param(mask, a) for a in accs]
    body.append(sass.clock(mask, T0))
    for _ in range(reps):
        body += [op.chained(mask, a, (B, C)) for a in accs]
    body += [sass.clock(mask, T1), Inst("IADD3", mask, dst=T1, srcs=(T1, T0, sass.RZ))]
    # One store of the summed chains keeps every chain live.
    body += [Inst(op.add, mask, dst=accs[0], srcs=(accs[0], a)) for a in accs[1:]]
    body += [sass.store_word(mask, OUT, accs[0],
                             [sass.OUT_BASE + 4 * (first_thread + i) for i in range(32)]),
             Inst("EXIT", mask)]
    return body


def alu_throughput(op_name: str, hw, reps: int, *, chains: int = 4, threads: int | None = None,
                   function: str | None = None) -> Built:
    """``function``: the MUFU function of the ``sfu`` chains (default sqrt)."""
    n = threads or hw.max_threads_per_cta
    warps = hw.warps(n)
    k = Kernel(name=f"_Z8{op_name}_maxPf", grid=(1, 1, 1), block=(n, 1, 1), nregs=32)
    ws = []
    for w in range(warps):
        live = min(32, n - 32 * w)
        mask = (1 << live) - 1
        ws.append(independent_warp(op_name, mask, reps, chains, 32 * w, function))
    k.blocks.append(ThreadBlock(coord=(0, 0, 0), warps=ws))
    flops = op_for(op_name).flops * n * reps * chains
    return Built(commands=[k], work=flops, sms=1)
