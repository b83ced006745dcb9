// The simple memory model's per-stream statistics: L2 outcomes per sector,
// DRAM sector reads, interconnect flits (as the packets would be cut) and the
// cycles requests queued behind the L2 bandwidth limit. The simple model has
// one L2 array and no DRAM channels or rows: one slice, one channel, and no
// activates or row hits.
#include "base/sector_granules.h"
#include "cache/cache_types.h"
#include "mem/simple_memory.h"
#include "mem/memory_families.h"
#include "stats/mem_stat_slots.h"

namespace accelsim::mem {

namespace {
constexpr uint32_t kHeaderBytes = 8;  // control part of every packet

uint32_t flits(uint32_t payload_bytes, uint32_t flit_bytes) {
  return (kHeaderBytes + payload_bytes + flit_bytes - 1) / flit_bytes;
}

cache::AccessType access_type(uint8_t kind) {
  switch (kind) {
    case kMemWrite: return cache::AccessType::GLOBAL_W;
    case kMemInst: return cache::AccessType::INST_R;
    default: return cache::AccessType::GLOBAL_R;  // reads and atomics return data
  }
}
}  // namespace

void SimpleMemory::register_stats(stats::CounterRegistry& reg) {
  add_memory_families(reg, 1, 1);
  l2_ = reg.find("l2.accesses")->data();
  dram_ = reg.find("dram.ops")->data();
  flits_ = reg.find("icnt.flits")->data();
  stalls_ = reg.find("icnt.stall_cycles")->data();
}

void SimpleMemory::count_l2(const MemRequest& req, uint32_t outcome, uint32_t n) {
  if (!l2_) return;
  size_t row = size_t(req.stream) * cache::kAccessTypes + size_t(access_type(req.kind));
  l2_[row * cache::kOutcomes + outcome] += n;
}

void SimpleMemory::count_traffic(const MemRequest& req, uint32_t nsec, uint64_t waited) {
  if (!flits_) return;
  uint32_t data = nsec * kGranuleBytes;  // nsec: 32 B granules moved
  bool carries = req.kind == kMemWrite || req.kind == kMemAtomic;
  bool returns = req.kind != kMemWrite;  // a write is acknowledged only
  uint64_t* f = flits_ + size_t(req.stream) * stats::kIcntDirs;
  f[size_t(stats::IcntDir::REQUEST)] += flits(carries ? data : 0, flit_bytes_);
  f[size_t(stats::IcntDir::REPLY)] += flits(returns ? data : 0, flit_bytes_);
  stalls_[size_t(req.stream) * stats::kIcntDirs + size_t(stats::IcntDir::REQUEST)] += waited;
}

}  // namespace accelsim::mem
