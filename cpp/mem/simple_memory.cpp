#include "mem/simple_memory.h"

#include <algorithm>
#include <bit>

namespace accelsim::mem {

namespace {
cache::TagArray make_l2_tags(const config::GpuConfig& cfg) {
  uint32_t ways = uint32_t(cfg.l2_assoc), line = uint32_t(cfg.l2_line);
  uint32_t sets = std::max<uint32_t>(1, uint32_t(cfg.l2_size / (int64_t(line) * ways)));
  sets = std::bit_floor(sets);  // the whole L2 as one array; linear index
  return cache::TagArray(sets, ways, line, uint32_t(cfg.l2_sector), cfg.l2_replacement, "linear");
}
}  // namespace

SimpleMemory::SimpleMemory(const config::GpuConfig& cfg, uint32_t num_sms)
    : l2_latency_(uint64_t(cfg.l2_hit_latency)),
      dram_latency_(uint64_t(std::max(cfg.dram_latency, cfg.l2_hit_latency))),
      sector_bytes_(uint32_t(cfg.l2_sector)),
      l2_bw_(uint64_t(cfg.l2_bandwidth)),
      dram_bw_(uint64_t(cfg.dram_bandwidth)),
      l2_tags_(make_l2_tags(cfg)),
      sms_(num_sms, nullptr) {}

void SimpleMemory::connect(uint16_t sm, ldst::ResponseQueue* responses) { sms_[sm] = responses; }

uint8_t SimpleMemory::l2_lookup(uint64_t line_addr, uint8_t sectors, uint64_t now) {
  cache::LineMeta* line = l2_tags_.find(line_addr);
  if (!line) {
    line = l2_tags_.victim(line_addr);
    if (!line) return sectors;
    l2_tags_.install(*line, line_addr, now);
  }
  l2_tags_.touch(*line, now);
  uint8_t missing = sectors & ~line->readable;
  line->readable |= sectors;
  line->allocated = true;
  return missing;
}

bool SimpleMemory::send(const ldst::MemRequest& req, uint64_t now) {
  uint32_t nsec = std::popcount(req.sector_mask);
  uint64_t bytes = uint64_t(nsec) * sector_bytes_;
  // Queueing: the transfer starts when the bytes ahead of it have drained.
  uint64_t start = std::max(now, l2_bw_.next_free_cycle());
  l2_bw_.consume(now, bytes);
  uint8_t missing = l2_lookup(req.line_addr, req.sector_mask, now);
  uint64_t ready = start + l2_latency_;
  if (req.kind == ldst::kMemWrite) {
    ++counters_.l2_writes;  // write-validate: no DRAM read
  } else {
    if (req.kind == ldst::kMemAtomic) ++counters_.l2_atomics;
    uint32_t nmiss = std::popcount(missing);
    counters_.l2_read_hits += nsec - nmiss;
    counters_.l2_read_misses += nmiss;
    if (nmiss) {
      counters_.dram_reads += nmiss;
      uint64_t dstart = std::max(start, dram_bw_.next_free_cycle());
      dram_bw_.consume(start, uint64_t(nmiss) * sector_bytes_);
      ready = dstart + dram_latency_;
    }
  }
  sms_[req.sm]->push(ready, ldst::MemResponse{req.line_addr, req.token, req.sector_mask, req.kind});
  return true;
}

void SimpleMemory::warm(uint64_t address, uint64_t bytes, uint64_t now) {
  uint64_t line = l2_tags_.line_bytes();
  for (uint64_t a = address & ~(line - 1); a < address + bytes; a += line) {
    uint64_t lo = std::max(a, address), hi = std::min(a + line, address + bytes);
    uint8_t mask = 0;
    for (uint64_t s = (lo - a) / sector_bytes_; s * sector_bytes_ < hi - a; ++s) mask |= uint8_t(1u << s);
    l2_lookup(a, mask, now);
  }
}

}  // namespace accelsim::mem
