#include "sm/exec/unit_set.h"

#include <algorithm>
#include <limits>

namespace accelsim::sm {

namespace {
UnitKind make_kind(std::string name, int64_t count, int64_t lat, int64_t init,
                   std::vector<std::string> classes) {
  return UnitKind{std::move(name), uint32_t(count), uint32_t(lat), uint32_t(init),
                  std::move(classes)};
}
}  // namespace

std::vector<UnitKind> unit_kinds_from_config(const config::GpuConfig& cfg) {
  std::vector<UnitKind> kinds;
  for (const auto& u : cfg.exec_units)
    kinds.push_back(make_kind(u.name, u.units_per_sm, u.latency, u.initiation, u.classes));
  if (!kinds.empty()) return kinds;
  // Default set: the published Volta trace-mode values, one pipeline per scheduler.
  const int64_t n = cfg.schedulers_per_sm;
  kinds.push_back(make_kind("sp", n, 2, 2, {"sp", "alu"}));
  kinds.push_back(make_kind("int", n, 2, 2, {"int"}));
  kinds.push_back(make_kind("dp", n, 8, 4, {"dp"}));
  kinds.push_back(make_kind("sfu", n, 20, 8, {"sfu"}));
  kinds.push_back(make_kind("tensor", n, 2, 2, {"tensor"}));
  kinds.push_back(make_kind("branch", n, 4, 4, {"branch"}));
  kinds.push_back(make_kind("tex", n, 200, 4, {"tex"}));
  return kinds;
}

void UnitMap::build(const std::vector<UnitKind>& kinds,
                    const std::vector<std::string>& class_names) {
  map_.fill(kNoUnit);
  depbar_class_ = -1;
  for (size_t c = 0; c < class_names.size() && c < map_.size(); ++c)
    if (class_names[c] == "depbar") depbar_class_ = int(c);
  for (size_t c = 0; c < class_names.size() && c < map_.size(); ++c)
    for (size_t k = 0; k < kinds.size(); ++k)
      for (const auto& name : kinds[k].classes)
        if (name == class_names[c]) map_[c] = int8_t(k);
}

void UnitSet::build(const std::vector<UnitKind>& kinds, uint32_t share,
                    const std::array<isa::UnitTiming, isa::kLatTableSize>& ptx_timing) {
  kinds_.clear();
  for (const auto& k : kinds) {
    Kind kind;
    kind.timing = ptx_timing;
    kind.timing[isa::kLatUnit] = isa::UnitTiming{k.latency, k.initiation};
    for (size_t c = isa::kLatFirstSass; c < isa::kLatClasses; ++c) {  // 0: the unit's own
      if (kind.timing[c].latency == 0) kind.timing[c].latency = k.latency;
      if (kind.timing[c].initiation == 0) kind.timing[c].initiation = k.initiation;
    }
    kind.next_free.assign(std::max<uint32_t>(1, k.pipelines_per_sm / share), Cycle{0});
    kinds_.push_back(std::move(kind));
  }
}

int UnitSet::free_pipeline(int kind, Cycle now) const {
  const auto& stamps = kinds_[kind].next_free;
  for (size_t i = 0; i < stamps.size(); ++i)
    if (stamps[i] <= now) return int(i);
  return -1;
}

Cycle UnitSet::next_free_after(Cycle now) const {
  Cycle best = Cycle::max();
  for (const auto& k : kinds_)
    for (Cycle t : k.next_free)
      if (t > now) best = earliest(best, t);
  return best;
}

void UnitSet::reset() {
  for (auto& k : kinds_) std::fill(k.next_free.begin(), k.next_free.end(), Cycle{0});
}

}  // namespace accelsim::sm
