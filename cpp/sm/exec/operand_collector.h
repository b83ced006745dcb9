// The register file's banks and the operand collector of one issuer (a
// sub-core, or the whole SM in the shared model). An instruction issued to an
// execution unit takes a collector unit and reads its distinct source
// registers there, register r from bank r % banks; a bank serves `ports`
// reads per cycle, shared by every instruction collecting. The instruction
// dispatches to its unit in the cycle its last read is served and frees its
// collector after it. Two sources in one bank of a single-ported file cost a
// cycle, and so does a bank another instruction's reads still hold.
#pragma once
#include <cstdint>
#include <vector>

#include "base/time.h"
#include "isa/inst_record.h"

namespace accelsim::sm {

class OperandCollector {
 public:
  // banks = 0: off (an instruction dispatches in its issue cycle).
  void build(uint32_t banks, uint32_t ports, uint32_t collectors);
  bool enabled() const { return !bank_next_.empty(); }
  bool has_free_collector(Cycle now) const;
  // Reads `in`'s sources from `now` in a free collector (has_free_collector
  // first); returns the dispatch cycle (>= now).
  Cycle collect(const isa::InstRecord& in, Cycle now);
  // Earliest cycle after `now` when a busy collector frees (Cycle::max() if none).
  Cycle next_free_after(Cycle now) const;
  void reset();

 private:
  uint64_t ports_ = 1;
  // Next free read slot of each bank, counted in cycle x ports: a bank's
  // reads this cycle are the slots [now x ports, (now + 1) x ports).
  std::vector<uint64_t> bank_next_;
  std::vector<Cycle> collector_free_;
};

}  // namespace accelsim::sm
