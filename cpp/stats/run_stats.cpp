#include "stats/run_stats.h"

#include <algorithm>

#include "base/error.h"

namespace accelsim::stats {

std::shared_ptr<RunStats> RunStats::since(const Snapshot& start, size_t first_row, size_t slots) const {
  if (start.values.size() != registry.size()) throw Error("snapshot of another registry");
  slots = std::clamp<size_t>(slots, 1, registry.stream_slots());
  auto out = std::make_shared<RunStats>(slots);
  for (size_t s = 0; s < slots; ++s) out->registry.set_stream_id(s, registry.stream_ids()[s]);
  for (size_t i = 0; i < registry.size(); ++i) {
    const CounterFamily& f = registry.family(i);
    std::vector<Dim> dims = f.dims();
    const int axis = f.stream_axis();
    if (axis >= 0) dims[size_t(axis)] = stream_dim(slots);
    CounterFamily& g = out->registry.add(f.name(), f.component(), f.unit(), f.doc(), dims);
    // Row-major: [outer][stream][inner]; only the first `slots` streams kept.
    const size_t extent = axis >= 0 ? f.dims()[size_t(axis)].size() : 1;
    const size_t inner = axis >= 0 ? f.stride(size_t(axis)) : f.size();
    const size_t keep = axis >= 0 ? slots : 1;
    const std::span<const uint64_t> now = f.values();
    const std::vector<uint64_t>& then = start.values[i];
    // a stream-limited snapshot holds start.slots streams of each (Snapshot)
    const size_t then_extent = start.slots && axis >= 0 ? std::min(extent, start.slots) : extent;
    if (keep > then_extent || then.size() != f.size() / extent * then_extent)
      throw Error("snapshot of another registry (family " + f.name() + ")");
    uint64_t* dst = g.data();
    for (size_t o = 0; o < f.size() / (extent * inner); ++o)
      for (size_t s = 0; s < keep; ++s)
        for (size_t k = 0; k < inner; ++k)
          *dst++ = now[(o * extent + s) * inner + k] - then[(o * then_extent + s) * inner + k];
  }
  out->seal();
  for (size_t r = first_row; r < kernels->rows(); ++r) out->kernels->copy_row(*kernels, r);
  return out;
}

}  // namespace accelsim::stats
