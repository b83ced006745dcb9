// Execution units: which unit kinds exist (from config), which ISA unit
// classes each executes, and the pipelines one scheduler (sub-core) or the
// whole SM (shared model) may issue to. Pipelines are ready-cycle stamps.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "base/time.h"
#include "isa/ptx_latency.h"

namespace accelsim::sm {

struct UnitKind {
  std::string name;
  uint32_t pipelines_per_sm = 1;
  uint32_t latency = 1;
  uint32_t initiation = 1;
  std::vector<std::string> classes;
};

// The configured unit kinds; the default set when the config lists none.
std::vector<UnitKind> unit_kinds_from_config(const config::GpuConfig& cfg);

// ISA unit class id -> unit kind index, built from a table's class names.
// Classes no unit executes map to kNoUnit (mem/exit/barrier/nop are the SM's).
class UnitMap {
 public:
  static constexpr int8_t kNoUnit = -1;
  UnitMap() { map_.fill(kNoUnit); }
  void build(const std::vector<UnitKind>& kinds, const std::vector<std::string>& class_names);
  int8_t kind_of(uint8_t unit_class) const { return map_[unit_class]; }
  // The ISA table's "depbar" class (DEPBAR on sm_80+, SYNCS on sm_90): an
  // instruction that waits until the warp's asynchronous copies and stores
  // are acknowledged before it issues.
  bool waits_for_async(uint8_t unit_class) const { return unit_class == depbar_class_; }

 private:
  std::array<int8_t, 256> map_{};
  int depbar_class_ = -1;
};

// The pipelines of every kind available to one issuer.
class UnitSet {
 public:
  // `share` = how many issuers split the SM's pipelines (schedulers in the
  // sub-core model, 1 in the shared model); `ptx_timing`: the cycles of each
  // PTX latency class (records="ptx"), the same for every kind.
  void build(const std::vector<UnitKind>& kinds, uint32_t share,
             const std::array<isa::UnitTiming, isa::kLatTableSize>& ptx_timing = {});
  // Index of a pipeline of `kind` free at `now`, or -1.
  int free_pipeline(int kind, Cycle now) const;
  // Occupy it for an instruction of latency class `lat_class` (0: the unit's
  // own cycles, every SASS record); returns the cycle the result is written.
  // One table load, no branch: the SASS path pays nothing for PTX classes.
  Cycle occupy(int kind, int pipe, Cycle now, uint8_t lat_class = isa::kLatUnit) {
    Kind& k = kinds_[kind];
    const isa::UnitTiming& t = k.timing[lat_class & (isa::kLatTableSize - 1)];
    k.next_free[pipe] = now + t.initiation;
    return now + t.latency;
  }
  // Earliest cycle after `now` when a busy pipeline frees (Cycle::max() if none).
  Cycle next_free_after(Cycle now) const;
  void reset();

 private:
  struct Kind {
    std::array<isa::UnitTiming, isa::kLatTableSize> timing;  // [0] the unit's, [c] PTX class c
    std::vector<Cycle> next_free;  // one stamp per pipeline
  };
  std::vector<Kind> kinds_;
};

}  // namespace accelsim::sm
