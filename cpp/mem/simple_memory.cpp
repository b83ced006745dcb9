#include "mem/simple_memory.h"

#include <algorithm>
#include <bit>

#include "base/bit_count.h"
#include "base/sector_granules.h"
#include "cache/cache_types.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::mem {

SimpleMemory::SimpleMemory(const SimpleMemoryParams& p)
    : l2_latency_(p.l2_latency),
      dram_latency_(p.dram_latency),
      sector_bytes_(p.l2_sector_bytes),
      memcpy_timing_(p.memcpy_timing),
      l2_bw_(p.l2_bytes_per_cycle),
      dram_bw_(p.dram_bytes_per_cycle),
      l2_tags_(p.l2_sets, p.l2_ways, p.l2_line_bytes, p.l2_sector_bytes, p.l2_replacement, "linear"),
      sms_(p.sms, nullptr),
      fill_ready_(l2_tags_.lines().size() * l2_tags_.sectors_per_line(), Cycle{0}),
      flit_bytes_(p.flit_bytes) {}

size_t SimpleMemory::line_index(const cache::LineMeta& line) {
  return size_t(&line - l2_tags_.lines().data());
}

void SimpleMemory::connect(uint16_t sm, ResponseQueue* responses) { sms_[sm] = responses; }

SimpleMemory::Lookup SimpleMemory::l2_lookup(uint64_t line_addr, uint8_t sectors, Cycle now,
                                             const MemRequest* req) {
  Lookup out;
  cache::LineMeta* line = l2_tags_.find(line_addr);
  const bool was_present = line != nullptr;
  if (!line) {
    line = l2_tags_.victim(line_addr);
    if (!line) {  // every way pinned: served from DRAM without allocating
      if (req) count_l2(*req, uint32_t(cache::Outcome::MISS), bit_count(sectors));
      return {sectors, Cycle{0}};
    }
    l2_tags_.install(*line, line_addr, now);
    size_t first = line_index(*line) * l2_tags_.sectors_per_line();
    std::fill_n(fill_ready_.begin() + first, l2_tags_.sectors_per_line(), Cycle{0});  // new tenant
  }
  l2_tags_.touch(*line, now);
  out.missing = sectors & ~line->readable;
  const size_t base = line_index(*line) * l2_tags_.sectors_per_line();
  for (uint32_t s = 0; s < l2_tags_.sectors_per_line(); ++s) {
    if (!(sectors >> s & 1)) continue;
    cache::Outcome o = !was_present             ? cache::Outcome::MISS
                       : (out.missing >> s & 1) ? cache::Outcome::SECTOR_MISS
                       : fill_ready_[base + s] > now ? cache::Outcome::MSHR_HIT
                                                     : cache::Outcome::HIT;
    if (o == cache::Outcome::MSHR_HIT) out.in_flight = latest(out.in_flight, fill_ready_[base + s]);
    if (req) count_l2(*req, uint32_t(o), 1);
  }
  line->readable |= sectors;
  line->allocated = true;
  return out;
}

// Records when the fetched sectors arrive, so later accesses merge with them.
static void stamp_fills(std::vector<Cycle>& ready, size_t base, uint8_t sectors, Cycle at) {
  for (uint32_t s = 0; sectors >> s; ++s)
    if (sectors >> s & 1) ready[base + s] = at;
}

bool SimpleMemory::send(const MemRequest& req, Cycle now) {
  // Requests carry 32 B granules; the L2 tags work in their own sectors
  // (a whole line when the L2 is not sectored: a miss fetches all of it).
  uint32_t nsec = bit_count(req.sector_mask);
  uint64_t bytes = uint64_t(nsec) * kGranuleBytes;
  // Queueing: the transfer starts when the bytes ahead of it have drained.
  Cycle start = latest(now, l2_bw_.next_free_cycle());
  l2_bw_.consume(now, bytes);
  Lookup l2 = l2_lookup(req.line_addr, sectors_of_granules(req.sector_mask, sector_bytes_), now, &req);
  Cycle ready = start + l2_latency_;
  if (req.kind != kMemWrite) {  // write-validate: a write reads no DRAM
    uint32_t nmiss = bit_count(l2.missing);
    ready = latest(ready, l2.in_flight);  // merged: the data is not there yet
    if (nmiss) {
      if (dram_) dram_[size_t(req.stream) * stats::kDramOps + size_t(stats::DramOp::READ)] += nmiss;
      Cycle dstart = latest(start, dram_bw_.next_free_cycle());
      dram_bw_.consume(start, uint64_t(nmiss) * sector_bytes_);
      ready = latest(ready, dstart + dram_latency_);
      if (const cache::LineMeta* line = l2_tags_.find(req.line_addr))
        stamp_fills(fill_ready_, line_index(*line) * l2_tags_.sectors_per_line(), l2.missing,
                    ready);
    }
  }
  count_traffic(req, nsec, start - now);
  sms_[req.sm]->push(ready, MemResponse{req.line_addr, req.token, req.sector_mask, req.kind});
  return true;
}

void SimpleMemory::begin_copy(uint64_t address, uint64_t bytes, Cycle now, bool to_host) {
  if (memcpy_timing_ && !to_host) warm(address, bytes, now);
}

void SimpleMemory::warm(uint64_t address, uint64_t bytes, Cycle now) {
  uint64_t line = l2_tags_.line_bytes();
  // Only the copy's tail can stay in L2: warming more than twice its
  // capacity (margin for uneven sets) would change nothing but the time a
  // huge copy takes here (a 1 TB copy would be 8 G lookups).
  const uint64_t keep = 2 * uint64_t(l2_tags_.lines().size()) * line;
  if (bytes > keep) {
    address += bytes - keep;
    bytes = keep;
  }
  for (uint64_t a = address & ~(line - 1); a < address + bytes; a += line) {
    uint64_t lo = std::max(a, address), hi = std::min(a + line, address + bytes);
    uint8_t mask = 0;
    for (uint64_t s = (lo - a) / sector_bytes_; s * sector_bytes_ < hi - a; ++s) mask |= uint8_t(1u << s);
    l2_lookup(a, mask, now);
  }
}

}  // namespace accelsim::mem
