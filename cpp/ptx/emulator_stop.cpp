// When emulation stops before a block ends: the run asked it to (Ctrl-C, a
// progress callback), or a warp ran past max_warp_insts. The second is
// reported with the most likely reason, read from the code the warp loops in
// and from what the rest of its block is doing.
#include <string>

#include "ptx/emulator.h"
#include "ptx/ptx_error.h"

namespace accelsim::ptx {

bool CtaEmulator::poll_stop() {
  poll_countdown_ = kPollEvery;
  stopped_ = guard_->stop_requested();
  return stopped_;
}

void CtaEmulator::report_spin(uint32_t w, int32_t pc, const Inst& in) const {
  const uint32_t lane = uint32_t(__builtin_ctz(warps_[w].stack.back().mask));
  fault(w, lane, in,
        "still running after " + std::to_string(L.max_warp_insts) + " warp instructions at PC " +
            std::to_string(pc) + " (PTX line " + std::to_string(in.line) + "): " + spin_reason(w, pc) +
            " (Device(max_warp_insts=...) raises the limit for a kernel that really runs this long)");
}

namespace {

// The innermost loop around pc: the branch back to the lowest target at or
// before pc, from an instruction at or after it. {-1, -1} when none.
std::pair<int32_t, int32_t> loop_around(const std::vector<Inst>& insts, int32_t pc) {
  std::pair<int32_t, int32_t> best{-1, -1};
  for (int32_t b = pc; b < int32_t(insts.size()); ++b) {
    const Inst& in = insts[size_t(b)];
    if (in.op != Op::kBra || in.ops.empty()) continue;
    const int32_t t = int32_t(in.ops[0].imm);
    if (t <= pc && (best.first < 0 || b - t < best.second - best.first)) best = {t, b};
  }
  return best;
}

// Whether the loop's body reads memory another thread could write.
bool reads_shared_state(const std::vector<Inst>& insts, std::pair<int32_t, int32_t> loop) {
  for (int32_t i = loop.first; i <= loop.second; ++i) {
    const Inst& in = insts[size_t(i)];
    const bool load = in.op == Op::kLd || in.op == Op::kLdu || in.op == Op::kAtom;
    if (load && in.space != kSpParam && in.space != kSpLocal && in.space != kSpConst) return true;
  }
  return false;
}

}  // namespace

std::string CtaEmulator::spin_reason(uint32_t w, int32_t pc) const {
  std::string waiting;  // other warps of the block held at a barrier
  int64_t bar_line = 0;
  for (uint32_t k = 0; k < nwarps_; ++k) {
    if (k == w || warps_[k].done || !warps_[k].at_barrier) continue;
    waiting += (waiting.empty() ? "" : ", ") + std::to_string(k);
    bar_line = P.insts[size_t(warps_[k].bar_pc)].line;
  }
  const auto loop = loop_around(P.insts, pc);
  const std::string where = loop.first < 0 ? std::string("its code")
                            : "the loop at PTX lines " + std::to_string(P.insts[size_t(loop.first)].line) + "-" +
                                  std::to_string(P.insts[size_t(loop.second)].line);
  if (!waiting.empty())
    return "a barrier deadlock? warp(s) " + waiting + " of the block wait at the barrier at PTX line " +
           std::to_string(bar_line) + " while this warp keeps running " + where + " and never reaches it";
  if (loop.first >= 0 && !reads_shared_state(P.insts, loop))
    return "an endless loop: " + where + " reads no memory another thread could change, so nothing can end it";
  if (loop.first >= 0 && L.grid.count() > 1)
    return where + " polls memory: does it wait for another block? PTX mode emulates only the blocks resident "
                   "on SMs and starts the others when they are dispatched, so a block waiting for one not "
                   "emulated yet never sees it";
  if (loop.first >= 0)
    return where + " polls memory that no other thread of this one-block grid sets";
  return "it never reaches its end";
}

}  // namespace accelsim::ptx
