// Reductions of a family to what a report needs: sum over instances (SMs,
// slices, channels), pick one stream slot or sum over all of them, keep the
// category dimensions. Used at kernel boundaries, never per event.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "stats/counter_family.h"

namespace accelsim::stats {

constexpr int kAllStreams = -1;

// Extent of the result: the product of the category dimensions (1 if none).
size_t category_size(const CounterFamily& f);

// `values` laid out like f (its live array or a snapshot of it). With
// `slot` == kAllStreams the stream dimension is summed too.
std::vector<uint64_t> reduce_to_categories(const CounterFamily& f, std::span<const uint64_t> values,
                                           int slot);

// The same, but one row per stream slot: [stream_slots x category_size].
// A family without a stream dimension puts everything in slot 0.
std::vector<uint64_t> reduce_per_stream(const CounterFamily& f, std::span<const uint64_t> values,
                                        size_t stream_slots);

}  // namespace accelsim::stats
