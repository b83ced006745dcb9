// One sectored cache model for L1D, L1I, L1C and L2 (GPGPU-Sim 4.x style).
//
//   access(req, now)  -> per-sector outcome (HIT, HIT_RESERVED, MISS,
//                        SECTOR_MISS, MSHR_HIT, RESERVATION_FAIL + reason)
//   miss_queue()      -> what to send below (fetches, write-throughs,
//                        write-backs), each stamped with its ready cycle
//   fill(line, sector, now) -> the merged requests waiting for that sector
//
// The cache models state and admission, not latency: the caller stamps hit
// latency on its own return queue. Counters are dense arrays owned here.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/timed_queue.h"
#include "cache/cache_types.h"
#include "cache/mshr.h"
#include "cache/tag_array.h"

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::cache {

struct CacheParams {
  std::string name = "cache";        // hierarchical instance name (errors, stats)
  int64_t size_bytes = 32768;
  uint32_t line_bytes = 128;         // <= 128 (byte masks are 128 bit)
  uint32_t sector_bytes = 32;        // == line_bytes for a non-sectored cache
  uint32_t assoc = 4;
  std::string replacement = "lru";   // see replacement_policies()
  std::string set_index = "linear";  // see set_index_functions()
  WritePolicy write_policy = WritePolicy::WRITE_BACK;
  WriteAllocPolicy write_alloc = WriteAllocPolicy::NO_ALLOCATE;
  uint32_t mshr_entries = 32;
  uint32_t mshr_max_merge = 8;
  uint32_t miss_queue_entries = 8;
  uint64_t miss_queue_latency = 0;   // cycles before a queued request may leave
  bool streaming = false;            // misses allocate no line; the fill does
  // Read misses fetch the aligned group of this many sectors (the missed one
  // and its neighbours not yet present or on their way): an L2 that reads
  // DRAM in 64 B has 2. 1 = the missed sector alone.
  uint32_t fetch_sectors = 1;
  uint32_t stream_slots = 1;         // first dimension of the counters
  // Access types this instance uses for what it generates (L1 vs L2 names).
  AccessType writeback_type = AccessType::L1_WRBK;
  AccessType write_alloc_type = AccessType::L1_WR_ALLOC_R;
};

// Parse config choice strings ("write_back", "lazy_fetch_on_read", ...).
WritePolicy parse_write_policy(const std::string& name, const char* key);
WriteAllocPolicy parse_write_alloc(const std::string& name, const char* key);

// Parameters of the standard instances from a GpuConfig.
CacheParams l1d_params(const config::GpuConfig& cfg, int64_t size_bytes, uint32_t stream_slots);
CacheParams l2_slice_params(const config::GpuConfig& cfg, uint32_t stream_slots);
CacheParams l1i_params(const config::GpuConfig& cfg);
CacheParams l1c_params(const config::GpuConfig& cfg);

class Cache {
 public:
  explicit Cache(const CacheParams& p);

  const CacheParams& params() const { return p_; }

  // One sector access. On RESERVATION_FAIL nothing changed but the counters:
  // the caller retries later with the same request.
  AccessResult access(const CacheRequest& req, Cycle now);

  // Data for (line_addr, sector) came back. Returns the requests that were
  // waiting on it (reads to answer; fetch-on-write writes now applied), valid
  // until the next call on this cache. Precondition: can_fill() (an eviction
  // on fill may need one miss-queue slot for its write-back).
  std::span<const CacheRequest> fill(uint64_t line_addr, uint32_t sector, Cycle now);
  bool can_fill() const { return !miss_queue_.full(); }
  bool fill_pending(uint64_t line_addr, uint32_t sector) const;

  // Requests for the level below; pop the front once it is ready and sent.
  TimedQueue<OutRequest>& miss_queue() { return miss_queue_; }
  const TimedQueue<OutRequest>& miss_queue() const { return miss_queue_; }

  // Drops every line's data (kernel-boundary L1 invalidation). Sectors with a
  // fill pending stay reserved so the fill still lands. Dirty data is lost:
  // call flush() first on a write-back cache.
  void invalidate_all();
  // Functional warm-up: `sectors` of `line_addr` become present (modified
  // when `write`), the line allocated over the replacement policy's victim if
  // absent (a dirty victim's write-back is not modelled: no time passes). No
  // counter changes. Nothing happens when every way of the set is reserved.
  void warm(uint64_t line_addr, uint8_t sectors, bool write, Cycle now);
  // Appends a write-back for every modified line, then marks them clean.
  // Not a hot-path call, so it may grow `out`.
  void flush(std::vector<OutRequest>& out);

  // Counters: [stream][access_type][outcome] and [stream][access_type][reason].
  std::span<const uint64_t> access_counts() const { return {counts_, n_counts_}; }
  std::span<const uint64_t> fail_counts() const { return {fails_, n_fails_}; }
  // Count into external arrays of the same layout from now on (a slice of a
  // run's counter family, which outlives this cache: the L1D is rebuilt at
  // kernel boundaries, its counts must not be).
  void count_into(uint64_t* counts, uint64_t* fails) { counts_ = counts, fails_ = fails; }
  // The same, for arrays of `slots` stream slots (the run's slot count is
  // known only once the cache exists); requests may then use any of them.
  void count_into(uint64_t* counts, uint64_t* fails, uint32_t slots);
  uint64_t count(AccessType t, Outcome o, uint32_t stream = 0) const;
  uint64_t fail_count(AccessType t, FailReason r, uint32_t stream = 0) const;
  void reset_counters();

  const TagArray& tags() const { return tags_; }
  const MshrTable& mshrs() const { return mshr_; }

 private:
  AccessResult read(const CacheRequest& req, Cycle now);
  AccessResult write(const CacheRequest& req, Cycle now);
  AccessResult miss(const CacheRequest& req, LineMeta* line, Cycle now, AccessType fetch_type,
                    uint32_t extra_slots);
  AccessResult write_validate(const CacheRequest& req, LineMeta* line, Cycle now);
  // Sectors of the missed sector's fetch group worth fetching with it.
  uint8_t fetch_group(const CacheRequest& req, const LineMeta* line) const;
  AccessResult fetch_on_write(const CacheRequest& req, LineMeta* line, Cycle now);
  OutRequest write_through(const CacheRequest& req) const;
  AccessResult record(const CacheRequest& req, Outcome o, FailReason r = FailReason::NONE);
  bool evict_for(LineMeta& victim, Cycle now);
  // `stream`: the slot whose access evicted the line (it caused the write).
  void push_writeback(const LineMeta& line, Cycle now, uint8_t stream = 0);
  OutRequest writeback_of(const LineMeta& line);
  void push_out(const OutRequest& out, Cycle now);
  void apply_write(LineMeta& line, const CacheRequest& w);
  ByteMask sector_bytes(uint32_t sector) const;

  CacheParams p_;
  TagArray tags_;
  MshrTable mshr_;
  TimedQueue<OutRequest> miss_queue_;
  std::vector<CacheRequest> fill_out_;  // scratch returned by fill()
  std::vector<uint64_t> own_counts_, own_fails_;  // used until count_into()
  uint64_t* counts_ = nullptr;
  uint64_t* fails_ = nullptr;
  size_t n_counts_ = 0, n_fails_ = 0;
};

}  // namespace accelsim::cache
