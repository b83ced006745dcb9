#include "sm/exec/operand_collector.h"

#include <algorithm>

namespace accelsim::sm {

namespace {
// Registers are stored + 1; RZ (R255, stored 256) is not read from a bank.
constexpr uint16_t kRz = 256;
// Instruction slot size on Volta and later (and of PTX-mode records).
constexpr uint32_t kInstBytes = 16;
}  // namespace

void OperandCollector::build(uint32_t banks, uint32_t ports, uint32_t collectors, bool reuse) {
  ports_ = std::max<uint32_t>(1, ports);
  reuse_ = reuse;
  reuse_slots_.clear();
  bank_next_.assign(banks, 0);
  collector_free_.assign(banks ? std::max<uint32_t>(1, collectors) : 0, Cycle{0});
}

bool OperandCollector::has_free_collector(Cycle now) const {
  for (Cycle t : collector_free_)
    if (t <= now) return true;
  return false;
}

OperandCollector::ReuseSlots& OperandCollector::reuse_of(uint16_t warp) {
  if (warp >= reuse_slots_.size()) reuse_slots_.resize(size_t(warp) + 1);
  return reuse_slots_[warp];
}

Cycle OperandCollector::collect(const isa::InstRecord& in, uint16_t warp, uint64_t age, Cycle now) {
  Cycle dispatch = now;
  const uint64_t first_slot = now.count() * ports_;
  const uint32_t banks = uint32_t(bank_next_.size());
  const ReuseSlots none{};
  ReuseSlots* cache = reuse_ ? &reuse_of(warp) : nullptr;
  // The previous instruction's caches serve this one only if it is the next in program order.
  const bool follows = cache && cache->age == age && in.pc > cache->pc && in.pc - cache->pc <= kInstBytes;
  const ReuseSlots& prev = follows ? *cache : none;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint16_t r = in.src[i];
    if (r == isa::kNoReg || r >= kRz) continue;
    if (std::find(in.src, in.src + i, r) != in.src + i) continue;  // read once
    if (prev.src[i] == r) continue;                                // this slot's reuse cache
    uint64_t& next = bank_next_[(r - 1u) % banks];
    const uint64_t slot = std::max(next, first_slot);
    next = slot + 1;
    dispatch = latest(dispatch, Cycle(slot / ports_));
  }
  if (cache) {
    cache->age = age;
    cache->pc = in.pc;
    for (uint32_t i = 0; i < 4; ++i) cache->src[i] = in.src[i] == in.dst ? isa::kNoReg : in.src[i];
  }
  for (Cycle& t : collector_free_)
    if (t <= now) {
      t = dispatch + 1;
      break;
    }
  return dispatch;
}

Cycle OperandCollector::next_free_after(Cycle now) const {
  Cycle best = Cycle::max();
  for (Cycle t : collector_free_)
    if (t > now) best = earliest(best, t);
  return best;
}

void OperandCollector::reset() {
  std::fill(bank_next_.begin(), bank_next_.end(), 0);
  std::fill(collector_free_.begin(), collector_free_.end(), Cycle{0});
  reuse_slots_.clear();
}

}  // namespace accelsim::sm
