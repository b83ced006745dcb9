"""The arithmetic instructions the FLOPS and latency benchmarks time."""
from __future__ import annotations

from dataclasses import dataclass, replace

from accelsim.tracegen import Inst


@dataclass(frozen=True)
class AluOp:
    opcode: str
    flops: int        # per thread per instruction: FMA = 2, HFMA2 = 2 lanes x 2, MUFU = 1
    regs: int         # registers per value: FP64 uses even/odd pairs
    operands: int     # GPR sources besides the chained one (a*b+c has two)
    add: str          # the same type's add, to combine independent chains at the end

    def chained(self, mask: int, reg: int, consts: tuple[int, int]) -> Inst:
        """``reg = op(reg, ...)``: depends on the previous write of ``reg``."""
        return Inst(self.opcode, mask, dst=reg, srcs=(reg,) + consts[: self.operands])


# What the real suite's inline PTX compiles to on sm_70:
# fma.rn.f32 -> FFMA, fma.rn.f64 -> DFMA, fma.rn.f16x2 -> HFMA2,
# mad.lo.s32 -> IMAD (counted as two integer ops, as the suite does),
# sqrt.approx.f32 -> MUFU.SQRT.
OPS: dict[str, AluOp] = {
    "fp32": AluOp("FFMA", 2, 1, 2, "FADD"),
    "fp64": AluOp("DFMA", 2, 2, 2, "DADD"),
    "fp16": AluOp("HFMA2", 4, 1, 2, "HADD2"),
    "int32": AluOp("IMAD", 2, 1, 2, "IADD3"),
    "sfu": AluOp("MUFU.SQRT", 1, 1, 0, "FADD"),
}

# The MUFU functions that carry a latency class of their own (config keys
# sass_latency_mufu_* / sass_initiation_mufu_*).
MUFU_FUNCTIONS = ("ex2", "lg2", "rsq", "rcp", "sin", "cos", "sqrt")


def op_for(op_name: str, function: str | None = None) -> AluOp:
    """``OPS[op_name]``; for ``sfu``, ``function`` picks the MUFU function the
    chains run (default sqrt, the suite's)."""
    op = OPS[op_name]
    if function is None:
        return op
    if op_name != "sfu" or function not in MUFU_FUNCTIONS:
        raise ValueError(f"{op_name}: function {function!r} is not one of the MUFU functions "
                         f"{', '.join(MUFU_FUNCTIONS)} (sfu twins only)")
    return replace(op, opcode=f"MUFU.{function.upper()}")
