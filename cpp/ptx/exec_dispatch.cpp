// The emulator's dispatch table, one executor per opcode from the rows of
// ptx/opcodes.def, and the executors too small for a file of their own.
// This file instantiates every arithmetic opcode's lane loops (exec_arith.h
// with the semantics of ops_*.h), so it is built with -frounding-math as the
// other executors are.
#include <iterator>
#include <string_view>

#include "ptx/exec_arith.h"
#include "ptx/ops_arith.h"
#include "ptx/ops_bits.h"
#include "ptx/ops_math.h"

namespace accelsim::ptx {

using namespace ops;  // the semantics structs the executor column names

const CtaEmulator::Executor CtaEmulator::kExecutors[] = {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) &CtaEmulator::exec,
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
};

namespace {
// Memory-class executors write their own record (with the access's space).
constexpr bool kRecordsItself[] = {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) std::string_view(#record_class) == "Memory",
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
};
static_assert(std::size(kRecordsItself) == size_t(Op::kCount));  // and so kExecutors, from the same rows
}  // namespace

void CtaEmulator::exec(uint32_t w, const Inst& in, uint32_t mask, int32_t pc) {
  (this->*kExecutors[size_t(in.op)])(w, in, mask);
  if (!kRecordsItself[size_t(in.op)]) record(w, pc, mask, in, 0);
}

void CtaEmulator::half_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const auto& o = in.ops;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint32_t l = uint32_t(__builtin_ctz(m));
    uint64_t a = o.size() > 1 ? value(wp, w, o[1], l) : 0, b = o.size() > 2 ? value(wp, w, o[2], l) : 0;
    uint64_t c = o.size() > 3 ? value(wp, w, o[3], l) : 0, r = 0;
    if (!half::arith(in.op, in.type, in.mods, a, b, c, r)) fault(w, l, in, "no half-precision semantics for this instruction");
    reg(wp, o[0].reg, l) = r;
  }
}

void CtaEmulator::nothing(uint32_t, const Inst&, uint32_t) {}

// __trap(): the kernel stops with an error, as cudaErrorLaunchFailure.
void CtaEmulator::trap(uint32_t w, const Inst& in, uint32_t mask) {
  if (mask) fault(w, uint32_t(__builtin_ctz(mask)), in, "trap executed (__trap() or a provable fault): the kernel stops");
}

// Branches, calls, returns, exits and barriers change the warp's SIMT stack,
// so run_warp executes them itself and never dispatches them here.
void CtaEmulator::control(uint32_t w, const Inst& in, uint32_t mask) {
  fault(w, uint32_t(__builtin_ctz(mask | 1)), in, "control-flow instruction reached the ALU dispatch (emulator bug)");
}

}  // namespace accelsim::ptx
