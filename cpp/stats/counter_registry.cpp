#include "stats/counter_registry.h"

#include <algorithm>
#include <cstdint>

#include "base/error.h"

namespace accelsim::stats {

namespace {
bool same_dims(const std::vector<Dim>& a, const std::vector<Dim>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Dim& x, const Dim& y) {
           return x.name == y.name && x.kind == y.kind && x.labels == y.labels;
         });
}
}  // namespace

CounterRegistry::CounterRegistry(size_t stream_slots) {
  if (stream_slots == 0 || stream_slots > 256)
    throw ConfigError("stream_slots", "stream slots must be 1..256, got " +
                                          std::to_string(stream_slots));
  stream_ids_.resize(stream_slots);
  for (size_t i = 0; i < stream_slots; ++i) stream_ids_[i] = i;  // until told otherwise
}

CounterFamily& CounterRegistry::add(std::string name, std::string component, std::string unit,
                                    std::string doc, std::vector<Dim> dims) {
  if (CounterFamily* old = find(name)) {
    if (rebinding_ && same_dims(old->dims(), dims)) return *old;
    throw Error("counter family '" + name + "' registered twice");
  }
  for (const Dim& d : dims)
    if (d.kind == DimKind::Stream && d.size() != stream_slots())
      throw Error(name + ": stream dimension has " + std::to_string(d.size()) +
                  " slots, the registry " + std::to_string(stream_slots()));
  families_.push_back(std::make_unique<CounterFamily>(std::move(name), std::move(component),
                                                      std::move(unit), std::move(doc),
                                                      std::move(dims)));
  return *families_.back();
}

size_t CounterRegistry::index_of(const std::string& name) const {
  for (size_t i = 0; i < families_.size(); ++i)
    if (families_[i]->name() == name) return i;
  return SIZE_MAX;
}

CounterFamily* CounterRegistry::find(const std::string& name) {
  for (auto& f : families_)
    if (f->name() == name) return f.get();
  return nullptr;
}

const CounterFamily* CounterRegistry::find(const std::string& name) const {
  return const_cast<CounterRegistry*>(this)->find(name);
}

void CounterRegistry::set_stream_id(size_t slot, uint64_t stream) {
  if (slot >= stream_ids_.size())
    throw Error("stream slot " + std::to_string(slot) + " out of range");
  stream_ids_[slot] = stream;
}

Snapshot CounterRegistry::snapshot() const {
  Snapshot s;
  s.values.reserve(families_.size());
  for (const auto& f : families_) s.values.emplace_back(f->values().begin(), f->values().end());
  return s;
}

Snapshot CounterRegistry::snapshot(size_t slots) const {
  Snapshot s;
  s.slots = std::max<size_t>(slots, 1);
  s.values.reserve(families_.size());
  for (const auto& f : families_) {
    const std::span<const uint64_t> v = f->values();
    const int axis = f->stream_axis();
    if (axis < 0 || s.slots >= f->dims()[size_t(axis)].size()) {
      s.values.emplace_back(v.begin(), v.end());
      continue;
    }
    const size_t extent = f->dims()[size_t(axis)].size(), inner = f->stride(size_t(axis));
    std::vector<uint64_t>& out = s.values.emplace_back();
    out.reserve(v.size() / extent * s.slots);
    for (size_t o = 0; o < v.size() / (extent * inner); ++o) {
      const auto* from = v.data() + o * extent * inner;
      out.insert(out.end(), from, from + s.slots * inner);
    }
  }
  return s;
}

void CounterRegistry::reset() {
  for (auto& f : families_) f->reset();
}

Snapshot difference(const Snapshot& after, const Snapshot& before) {
  if (after.slots || before.slots) throw Error("difference of stream-limited snapshots");
  if (after.values.size() != before.values.size())
    throw Error("snapshots of different registries");
  Snapshot d = after;
  for (size_t f = 0; f < d.values.size(); ++f) {
    if (d.values[f].size() != before.values[f].size())
      throw Error("snapshots of different registries");
    for (size_t i = 0; i < d.values[f].size(); ++i) d.values[f][i] -= before.values[f][i];
  }
  return d;
}

void accumulate(Snapshot& total, const Snapshot& more) {
  if (total.values.empty()) {
    total = more;
    return;
  }
  if (total.values.size() != more.values.size() || total.slots || more.slots)
    throw Error("snapshots of different registries");
  for (size_t f = 0; f < total.values.size(); ++f) {
    if (total.values[f].size() != more.values[f].size()) throw Error("snapshots of different registries");
    for (size_t i = 0; i < total.values[f].size(); ++i) total.values[f][i] += more.values[f][i];
  }
}

}  // namespace accelsim::stats
