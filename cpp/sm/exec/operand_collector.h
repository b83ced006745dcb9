// The register file's banks and the operand collector of one issuer (a
// sub-core, or the whole SM in the shared model). An instruction issued to an
// execution unit takes a collector unit and reads its distinct source
// registers there, register r from bank r % banks; a bank serves `ports`
// reads per cycle, shared by every instruction collecting. The instruction
// dispatches to its unit in the cycle its last read is served and frees its
// collector after it. Two sources in one bank of a single-ported file cost a
// cycle, and so does a bank another instruction's reads still hold.
//
// Operand reuse caches: traces carry no .reuse flags, so the collector infers
// them as ptxas sets them. A source that the same warp's previous instruction
// in program order (this one's pc is at most one 16-byte slot after it) read
// in the same operand slot, and did not overwrite, is served by that slot's
// reuse cache without a bank read.
#pragma once
#include <cstdint>
#include <vector>

#include "base/time.h"
#include "isa/inst_record.h"

namespace accelsim::sm {

class OperandCollector {
 public:
  // banks = 0: off (an instruction dispatches in its issue cycle); reuse:
  // model the operand reuse caches.
  void build(uint32_t banks, uint32_t ports, uint32_t collectors, bool reuse);
  bool enabled() const { return !bank_next_.empty(); }
  bool has_free_collector(Cycle now) const;
  // Reads `in`'s sources (issued by the warp in slot `warp`, launched as the
  // SM's `age`-th) from `now` in a free collector (has_free_collector first);
  // returns the dispatch cycle (>= now).
  Cycle collect(const isa::InstRecord& in, uint16_t warp, uint64_t age, Cycle now);
  // Earliest cycle after `now` when a busy collector frees (Cycle::max() if none).
  Cycle next_free_after(Cycle now) const;
  void reset();

 private:
  uint64_t ports_ = 1;
  // Next free read slot of each bank, counted in cycle x ports: a bank's
  // reads this cycle are the slots [now x ports, (now + 1) x ports).
  std::vector<uint64_t> bank_next_;
  std::vector<Cycle> collector_free_;
  // What each warp's last collected instruction left in the reuse caches:
  // its pc and, per operand slot, the register it read (kNoReg if none or
  // overwritten by that instruction).
  struct ReuseSlots {
    uint64_t age = UINT64_MAX;  // the warp they belong to (a slot's next warp starts empty)
    uint32_t pc = UINT32_MAX;
    uint16_t src[4] = {isa::kNoReg, isa::kNoReg, isa::kNoReg, isa::kNoReg};
  };
  bool reuse_ = false;
  std::vector<ReuseSlots> reuse_slots_;  // by warp slot, grown on demand
  ReuseSlots& reuse_of(uint16_t warp);
};

}  // namespace accelsim::sm
