// The counter families of one simulator run, owned in one place. Components
// register their families while the GPU is assembled and keep pointers into
// them; the registry outlives the GPU (the run result holds it), so Python
// views of the counters stay valid after the run. One registry per run: no
// global state, several runs may proceed in parallel threads.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stats/counter_family.h"

namespace accelsim::stats {

// Every family's values at one instant, in registry order. `slots` 0: all
// of them; else only the first `slots` streams of each family with a stream
// axis, packed [outer][stream < slots][inner] (what RunStats::since reads
// for a run of that many streams, at a fraction of the copy).
struct Snapshot {
  std::vector<std::vector<uint64_t>> values;
  size_t slots = 0;
};

class CounterRegistry {
 public:
  // `stream_slots`: extent of every family's stream dimension.
  explicit CounterRegistry(size_t stream_slots = 1);
  CounterRegistry(const CounterRegistry&) = delete;
  CounterRegistry& operator=(const CounterRegistry&) = delete;

  // Adds a family; names are unique. The reference stays valid as long as
  // the registry (families are never moved). While rebinding, adding a
  // family that exists with the same dimensions returns the existing one (a
  // new component counting on where an old one of the same place counted).
  CounterFamily& add(std::string name, std::string component, std::string unit, std::string doc,
                     std::vector<Dim> dims);
  void set_rebinding(bool on) { rebinding_ = on; }
  CounterFamily* find(const std::string& name);
  // Index of the family called `name`, or SIZE_MAX.
  size_t index_of(const std::string& name) const;
  const CounterFamily* find(const std::string& name) const;
  size_t size() const { return families_.size(); }
  CounterFamily& family(size_t i) { return *families_[i]; }
  const CounterFamily& family(size_t i) const { return *families_[i]; }

  // Stream slots are dense ids handed out per CUDA stream at launch; the
  // registry remembers which stream each slot stands for.
  size_t stream_slots() const { return stream_ids_.size(); }
  void set_stream_id(size_t slot, uint64_t stream);
  const std::vector<uint64_t>& stream_ids() const { return stream_ids_; }

  Snapshot snapshot() const;
  // Only the first `slots` streams (Snapshot::slots): a run's start, for
  // RunStats::since; difference() and accumulate() take full ones only.
  Snapshot snapshot(size_t slots) const;
  void reset();

 private:
  std::vector<std::unique_ptr<CounterFamily>> families_;
  std::vector<uint64_t> stream_ids_;
  bool rebinding_ = false;
};

// after - before, element-wise (same registry, later snapshot first).
Snapshot difference(const Snapshot& after, const Snapshot& before);
// total += more, element-wise; an empty total becomes a copy of more.
void accumulate(Snapshot& total, const Snapshot& more);

}  // namespace accelsim::stats
