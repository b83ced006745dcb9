#include "mem/detailed_memory.h"

#include <algorithm>
#include <bit>

#include "base/bit_count.h"
#include "base/error.h"
#include "base/sector_granules.h"

namespace accelsim::mem {
namespace {
// A split L2 puts the lower half of the partitions (and their slices) next
// to the lower half of the SMs.
L2SliceTiming slice_timing(const DetailedMemoryParams& p, uint32_t slice) {
  L2SliceTiming t;
  t.bytes_per_cycle = p.slice_bytes_per_cycle;
  t.far_cycles = p.far_latency;
  t.upper_half = slice / p.slices_per_partition >= p.partitions / 2;
  t.first_upper_sm = p.sms / 2;
  return t;
}

}  // namespace

DetailedMemory::DetailedMemory(const DetailedMemoryParams& p)
    : period_{p.icnt_period_ps, p.l2_period_ps, p.dram_period_ps},
      core_period_(p.core_period_ps),
      wake_{kIdle, kIdle, kIdle},
      ran_{Picoseconds{0}, Picoseconds{0}, Picoseconds{0}},
      rop_ps_(uint64_t(p.rop_latency) * period_[kL2]),
      dram_fixed_ps_(uint64_t(p.dram_fixed_latency) * period_[kL2]),
      slices_per_partition_(p.slices_per_partition),
      memcpy_timing_(p.memcpy_timing),
      amap_(p.address_map),
      pool_(p.pool_capacity),
      icnt_(p.request_network, p.reply_network, "gpu.icnt"),
      req_active_(p.slices()),
      rep_active_(p.sms),
      sms_(p.sms, nullptr),
      copy_(p.l2_slice.line_bytes, kGranuleBytes,  // copies arrive as 32 B granule writes
            p.copy_ps_per_kilobyte),
      copy_out_(copy_) {  // the same link rate the other way (PCIe / NVLink are full duplex)
  if (p.request_network.sources != p.sms || p.reply_network.destinations != p.sms)
    throw ConfigError("sm_count", "detailed memory: networks built for a different SM count");
  const uint32_t per = p.slices_per_partition;
  slices_.reserve(p.slices());
  for (uint32_t s = 0; s < p.slices(); ++s) {
    cache::CacheParams cp = p.l2_slice;
    cp.name = "gpu.l2[" + std::to_string(s) + "]";
    slices_.emplace_back(cp, p.queue_entries, p.rop_latency, s, slice_timing(p, s));
  }
  // The latency pipe must not throttle: it holds everything the slices can
  // push (one entry per slice per L2 cycle) during the fixed latency.
  const uint32_t pipe = p.queue_entries + per * (p.dram_fixed_latency + 1);
  parts_.reserve(p.partitions);
  for (uint32_t i = 0; i < p.partitions; ++i)
    parts_.emplace_back(p.dram, amap_, i, i * per, per, pipe, p.l2_slice.sector_bytes,
                        "gpu.dram[" + std::to_string(i) + "]");
  slice_wake_.assign(p.slices(), kIdle);
  // Channels run from time 0 even without requests: refresh falls due on its
  // own schedule (a channel first ticked late would owe every refresh since).
  part_wake_.assign(parts_.size(), Picoseconds{0});
  wake_[kDram] = Picoseconds{0};
}

DetailedMemory::~DetailedMemory() = default;

void DetailedMemory::connect(uint16_t sm, ResponseQueue* responses) { sms_.at(sm) = responses; }

uint32_t DetailedMemory::request_bytes(const InFlight& r) const {
  if (r.kind == kMemRead || r.kind == kMemInst) return header_bytes_;
  return header_bytes_ + uint32_t(bit_count(r.sector_mask)) * kGranuleBytes;
}

uint32_t DetailedMemory::reply_bytes(const InFlight& r) const {
  if (r.kind == kMemWrite) return header_bytes_;
  return header_bytes_ + uint32_t(bit_count(r.sector_mask)) * kGranuleBytes;
}

Picoseconds DetailedMemory::edge(Domain d, Picoseconds t) const {
  if (t == kIdle) return kIdle;
  const Picoseconds e = time_of(cycle_at(t, period_[d]), period_[d]);
  return latest(e, ran_[d]);
}

void DetailedMemory::wake_slice(uint32_t s, Picoseconds t) {
  slice_wake_.lower(s, t);
  wake(kL2, t);
}

void DetailedMemory::wake_partition(uint32_t p, Picoseconds t) {
  part_wake_.lower(p, t);
  wake(kDram, t);
}

uint64_t DetailedMemory::admission_cost(const MemRequest& req) const {
  if (req.sector_mask == 0) return 0;  // answered at once, never refused
  InFlight r;
  r.sector_mask = req.sector_mask;
  r.kind = req.kind;
  r.bytes = req.bytes;
  return icnt_.request().config().flits_for(request_bytes(r));
}

bool DetailedMemory::send(const MemRequest& req, Cycle now) {
  if (pool_.full()) {
    count_stall(req.stream, stats::IcntDir::REQUEST);
    return false;
  }
  InFlight r;
  r.bytes = req.bytes;
  r.line_addr = req.line_addr;
  r.token = req.token;
  r.sm = req.sm;
  r.sector_mask = req.sector_mask;
  r.kind = req.kind;
  r.stream = req.stream;
  r.pending = req.sector_mask;
  if (r.sector_mask == 0) {  // nothing to move: answered at once
    sms_[req.sm]->push(now + 1, MemResponse{req.line_addr, req.token, 0, req.kind});
    return true;
  }
  const uint32_t size = request_bytes(r);
  if (!icnt_.request().can_push(req.sm, size)) {
    count_stall(req.stream, stats::IcntDir::REQUEST);  // the SM retries next cycle
    return false;
  }
  r.slice = uint16_t(amap_.global_slice(req.line_addr));
  const uint32_t id = pool_.alloc();
  pool_[id] = r;
  icnt_.request().push(req.sm, r.slice, size, IcntPacket{id});
  count_flits(r.stream, stats::IcntDir::REQUEST, size);
  req_active_.add(r.slice);
  wake(kIcnt, time_of(now, core_period_));
  return true;
}

void DetailedMemory::tick(Cycle now) {
  const Picoseconds T = time_of(now, core_period_);
  while (true) {
    Domain d = kIcnt;
    for (uint8_t i = 1; i < kDomains; ++i)
      if (wake_[i] < wake_[d]) d = Domain(i);
    const Picoseconds t = wake_[d];
    if (t > T) break;
    wake_[d] = kIdle;
    ran_[d] = t + period_[d];
    const Cycle cycle = cycle_of(t, period_[d]);
    switch (d) {
      case kIcnt: run_icnt(cycle, t); break;
      case kL2: run_l2(cycle, t); break;
      default: run_dram(cycle, t); break;
    }
  }
}

Cycle DetailedMemory::next_event() const {
  const Picoseconds t = earliest(earliest(wake_[kIcnt], wake_[kL2]), wake_[kDram]);
  return t == kIdle ? kNever : cycle_at(t, core_period_);
}

Cycle DetailedMemory::next_tick(Cycle core_cycle) const {
  const Cycle n = next_event();
  return n == kNever ? kNever : latest(n, core_cycle);
}

std::vector<MemPort::ClockedPart> DetailedMemory::clocked_parts() {
  return {ClockedPart{ClockDomain::core, this}};
}

// ---- interconnect cycle: move flits, deliver packets at both ends ------------

template <class Take>
void DetailedMemory::deliver(icnt::Crossbar<IcntPacket>& net, ActiveSet& active, Cycle cycle, Take take) {
  icnt::Crossbar<IcntPacket>::Packet pkt;
  for (size_t i = 0; i < active.list.size();) {
    const uint32_t d = active.list[i];
    while (net.peek(d, cycle) && take(d, *net.peek(d, cycle))) {
      net.pop(d, cycle, pkt);
      --active.count[d];
    }
    if (active.count[d] == 0) {  // swap-remove; the order of outputs does not matter
      active.list[i] = active.list.back();
      active.list.pop_back();
    } else {
      ++i;
    }
  }
}

void DetailedMemory::run_icnt(Cycle c, Picoseconds t) {
  icnt_.tick(c);
  using Packet = icnt::Crossbar<IcntPacket>::Packet;
  const Picoseconds ready = t + rop_ps_;
  deliver(icnt_.request(), req_active_, c, [&](uint32_t s, const Packet& p) {
    L2Slice& sl = slices_[s];
    if (!sl.can_accept()) return false;
    sl.accept(p.payload.id, ready);
    wake_slice(s, ready);
    return true;
  });
  const Cycle core_cycle = cycle_at(t, core_period_);
  deliver(icnt_.reply(), rep_active_, c, [&](uint32_t m, const Packet& p) {
    const InFlight& r = pool_[p.payload.id];
    sms_[m]->push(core_cycle, MemResponse{r.line_addr, r.token, r.sector_mask, r.kind});
    pool_.release(p.payload.id);
    return true;
  });
  const Cycle ev = icnt_.next_event_cycle();
  if (ev != icnt::kIcntNever) wake(kIcnt, time_of(latest(c + 1, ev), period_[kIcnt]));
}

// ---- L2 cycle: copy engine, slices, replies out, misses towards DRAM ---------

void DetailedMemory::inject_copy(CopyEngine& e, bool to_host, Picoseconds t) {
  while (e.injecting() && e.next_ps() <= t && !pool_.full()) {
    const CopyEngine::Chunk c = e.peek();
    const uint32_t s = amap_.global_slice(c.line_addr);
    L2Slice& sl = slices_[s];
    if (!sl.can_accept()) break;
    InFlight r;
    r.line_addr = c.line_addr;
    r.sm = to_host ? kCopyReadSource : kCopySource;
    r.slice = uint16_t(s);
    r.kind = to_host ? kMemRead : kMemWrite;
    r.sector_mask = r.pending = uint8_t(1u << c.sector);
    r.bytes = ByteMask::range(c.first_byte, c.bytes);
    const uint32_t id = pool_.alloc();
    pool_[id] = r;
    // A read goes through the slice's ROP pipe as an SM's would: a hit costs
    // the L2 latency, a miss the DRAM path too. A write is posted: it lands
    // in the slice once its bytes have crossed the link.
    const Picoseconds ready = to_host ? t + rop_ps_ : t;
    sl.accept(id, ready);
    wake_slice(s, ready);
    e.advance(c);
  }
}

void DetailedMemory::drain_done(L2Slice& s, Picoseconds t) {
  drain_queue(s, s.done(), t, Cycle::max());
  if (!s.far_done().empty()) drain_queue(s, s.far_done(), t, cycle_of(t, period_[kL2]));
}

void DetailedMemory::drain_queue(L2Slice& s, TimedQueue<uint32_t>& q, Picoseconds t, Cycle cycle) {
  while (q.front_ready(cycle)) {
    const uint32_t id = q.front();
    const InFlight& r = pool_[id];
    if (r.sm == kCopySource || r.sm == kCopyReadSource) {
      (r.sm == kCopySource ? copy_ : copy_out_).finished();
      pool_.release(id);
    } else {
      const uint32_t bytes = reply_bytes(r);
      if (!icnt_.reply().push(s.id(), r.sm, bytes, IcntPacket{id})) {
        count_stall(r.stream, stats::IcntDir::REPLY);  // retried next L2 cycle
        break;
      }
      count_flits(r.stream, stats::IcntDir::REPLY, bytes);
      rep_active_.add(r.sm);
      wake(kIcnt, t);
    }
    q.pop();
  }
}

void DetailedMemory::run_l2(Cycle cycle, Picoseconds t) {
  const uint64_t P = period_[kL2];
  Picoseconds next = kIdle;
  if (copy_.injecting()) {
    inject_copy(copy_, false, t);
    if (copy_.injecting()) next = latest(copy_.next_ps(), t + P);
  }
  if (copy_out_.injecting()) {
    inject_copy(copy_out_, true, t);
    if (copy_out_.injecting()) next = earliest(next, latest(copy_out_.next_ps(), t + P));
  }
  const uint32_t per = slices_per_partition_;
  for (uint32_t s : slice_wake_.take_due(t)) {  // only the slices due: most idle most cycles
    L2Slice& sl = slices_[s];
    sl.tick(cycle, t, pool_);
    drain_done(sl, t);
    const uint32_t p = s / per;
    const Picoseconds arrival = parts_[p].collect(sl, cycle, t, dram_fixed_ps_);
    if (arrival.count()) wake_partition(p, arrival);
    Picoseconds w = sl.next_event_ps(t, P);
    const auto& mq = sl.cache().miss_queue();
    if (!mq.empty()) w = earliest(w, latest(t + P, time_of(mq.front_ready_cycle(), P)));
    slice_wake_.set(s, w);
  }
  wake(kL2, earliest(next, slice_wake_.next()));
}

// ---- DRAM cycle: channels, fills back to the slices ---------------------------

void DetailedMemory::run_dram(Cycle cycle, Picoseconds t) {
  const uint64_t P = period_[kDram];
  for (uint32_t p : part_wake_.take_due(t)) {  // only the channels due (refresh included)
    MemoryPartition& mp = parts_[p];
    if (mp.tick(cycle, t, slices_))
      for (uint32_t i = 0; i < mp.slice_count(); ++i) wake_slice(mp.first_slice() + i, t);
    part_wake_.set(p, mp.next_event_ps(t, P));
  }
  wake(kDram, part_wake_.next());
}

// ---- copy engine -------------------------------------------------------------------

void DetailedMemory::begin_copy(uint64_t address, uint64_t bytes, Cycle now, bool to_host) {
  if (!memcpy_timing_ || bytes == 0) return;
  const Picoseconds t = time_of(now, core_period_);
  (to_host ? copy_out_ : copy_).start(address, bytes, t);
  wake(kL2, t);
}

void DetailedMemory::warm(uint64_t address, uint32_t bytes, bool write, Cycle now) {
  if (bytes == 0 || slices_.empty()) return;
  const cache::CacheParams& p = slices_[0].cache().params();
  const uint64_t line = p.line_bytes, sector = p.sector_bytes;
  for (uint64_t a = address & ~(line - 1); a < address + bytes; a += line) {
    const uint64_t lo = std::max(a, address), hi = std::min(a + line, address + bytes);
    uint8_t mask = 0;
    for (uint64_t s = (lo - a) / sector; s * sector < hi - a; ++s) mask |= uint8_t(1u << s);
    slices_[amap_.global_slice(a)].cache().warm(a, mask, write, Cycle(now.count() * core_period_ / period_[kL2]));
  }
}

Cycle DetailedMemory::advance_copy(Cycle now, Cycle limit) {
  Cycle c = now;
  const bool in = copy_.busy(), out = copy_out_.busy();
  auto all_busy = [&] { return (!in || copy_.busy()) && (!out || copy_out_.busy()) && (in || out); };
  while (all_busy() && c < limit) {
    tick(c);
    if (!all_busy()) break;
    const Cycle n = next_event();
    if (n == kNever) throw Error("gpu.copy_engine: copy stalled with nothing scheduled");
    c = earliest(limit, latest(c + 1, n));
  }
  return c;
}

// ---- statistics and reports ---------------------------------------------------------

MemorySummary DetailedMemory::summary() const {
  using cache::AccessType;
  using cache::Outcome;
  MemorySummary m;
  const size_t per_stream = size_t(cache::kAccessTypes) * cache::kOutcomes;
  auto at = [](AccessType ty, Outcome o) { return size_t(ty) * cache::kOutcomes + size_t(o); };
  for (const L2Slice& s : slices_) {
    std::span<const uint64_t> c = s.cache().access_counts();
    for (size_t base = 0; base + per_stream <= c.size(); base += per_stream) {
      for (AccessType ty : {AccessType::GLOBAL_R, AccessType::LOCAL_R}) {
        m.l2_read_hits += c[base + at(ty, Outcome::HIT)];
        m.l2_read_misses += c[base + at(ty, Outcome::MISS)] + c[base + at(ty, Outcome::SECTOR_MISS)];
        m.l2_read_merged += c[base + at(ty, Outcome::HIT_RESERVED)] + c[base + at(ty, Outcome::MSHR_HIT)];
        m.l2_reservation_fails += c[base + at(ty, Outcome::RESERVATION_FAIL)];
      }
      for (AccessType ty : {AccessType::GLOBAL_W, AccessType::LOCAL_W}) {
        for (int o = 0; o < cache::kOutcomes; ++o)
          if (Outcome(o) != Outcome::RESERVATION_FAIL) m.l2_writes += c[base + at(ty, Outcome(o))];
        m.l2_reservation_fails += c[base + at(ty, Outcome::RESERVATION_FAIL)];
      }
    }
    m.l2_atomics += s.counters().atomics;
  }
  // Atomics' read-modify-write appears as a read plus a write hit: count the
  // write part under atomics, not under writes.
  m.l2_writes -= m.l2_atomics;
  for (const MemoryPartition& p : parts_) {
    const dram::DramChannel& ch = p.channel();
    m.dram_reads += ch.counter(dram::DramCounter::reads);
    m.dram_writes += ch.counter(dram::DramCounter::writes);
    m.dram_activates += ch.counter(dram::DramCounter::activates);
    m.dram_row_hits += ch.counter(dram::DramCounter::row_hits);
    m.dram_row_misses += ch.counter(dram::DramCounter::row_misses);
  }
  for (uint32_t s = 0; s < icnt_.request().config().sources; ++s)
    m.icnt_request_flits += icnt_.request().source_counter(s, icnt::PortCounter::flits);
  for (uint32_t s = 0; s < icnt_.reply().config().sources; ++s)
    m.icnt_reply_flits += icnt_.reply().source_counter(s, icnt::PortCounter::flits);
  return m;
}

bool DetailedMemory::idle() const {
  if (!icnt_.idle() || copy_.busy() || copy_out_.busy()) return false;
  for (const L2Slice& s : slices_)
    if (!s.idle() || !s.cache().miss_queue().empty()) return false;
  for (const MemoryPartition& p : parts_)
    if (!p.idle()) return false;
  return true;
}

std::string DetailedMemory::describe() const {
  std::string s = "gpu.memory: " + std::to_string(pool_.in_use()) + " requests in flight";
  if (!icnt_.idle()) s += ", interconnect busy";
  uint32_t busy_slices = 0, busy_parts = 0;
  for (const L2Slice& sl : slices_) busy_slices += !sl.idle() || !sl.cache().miss_queue().empty();
  for (const MemoryPartition& p : parts_) busy_parts += !p.idle();
  s += ", " + std::to_string(busy_slices) + " L2 slices and " + std::to_string(busy_parts) +
       " DRAM channels with work";
  if (!icnt_.idle()) s += "\n  " + icnt_.describe();  // the parts' own descriptions
  for (const MemoryPartition& p : parts_)
    if (!p.channel().idle()) s += "\n  " + p.channel().describe();
  return s;
}

void DetailedMemory::invalidate_caches() {
  for (L2Slice& s : slices_) s.cache().invalidate_all();
}

}  // namespace accelsim::mem
