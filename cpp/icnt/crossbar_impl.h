// Template bodies of Crossbar (included by crossbar.h only).
#pragma once

namespace accelsim::icnt {

template <typename Payload>
Crossbar<Payload>::Crossbar(const CrossbarConfig& cfg, std::string name)
    : cfg_((cfg.validate(), cfg)),
      name_(std::move(name)),
      in_used_(cfg.sources, 0),
      out_used_(cfg.destinations, 0),
      lock_(cfg.destinations, kNone),
      last_grant_(cfg.destinations, cfg.sources - 1),
      winner_(cfg.destinations, kNone),
      src_busy_(cfg.input_lanes > 1 ? cfg.sources : 0, 0),
      next_lane_(cfg.input_lanes > 1 ? cfg.sources : 0, 0),
      src_counters_(size_t{cfg.sources} * kPortCounterCount, 0),
      dst_counters_(size_t{cfg.destinations} * kPortCounterCount, 0) {
  // Every packet is at least one flit, so a buffer never holds more packets
  // than it has flits.
  inputs_.reserve(size_t{cfg.sources} * cfg.input_lanes);
  for (uint32_t i = 0; i < cfg.sources * cfg.input_lanes; ++i) inputs_.emplace_back(cfg.in_buffer_flits);
  outputs_.reserve(cfg.destinations);
  for (uint32_t d = 0; d < cfg.destinations; ++d) outputs_.emplace_back(cfg.out_buffer_flits);
}

template <typename Payload>
bool Crossbar<Payload>::push(uint32_t src, uint32_t dst, uint32_t size_bytes, const Payload& payload) {
  const uint32_t flits = cfg_.flits_for(size_bytes);
  // A packet larger than either buffer could never cross: a wiring bug.
  if (flits > cfg_.in_buffer_flits || flits > cfg_.out_buffer_flits || dst >= cfg_.destinations)
    throw Error(name_ + ": packet of " + std::to_string(size_bytes) + " B to port " +
                std::to_string(dst) + " cannot cross");
  if (!can_push(src, size_bytes)) return false;
  inputs_[src * lanes() + dst % lanes()].push(InPacket{payload, dst, size_bytes, flits, 0});
  in_used_[src] += flits;
  ++queued_packets_;
  return true;
}

template <typename Payload>
void Crossbar<Payload>::tick(Cycle now) {
  after_ = now + 1;
  if (queued_packets_ == 0) return;
  if (lanes() > 1) {
    arbitrate_lanes();
  } else {
    arbitrate();
    count_stalls();
  }
  for (uint32_t d = 0; d < cfg_.destinations; ++d)
    if (winner_[d] < inputs_.size()) move_flit(winner_[d], d, now);
}

// Per output: the source holding it mid-packet keeps it; otherwise the first
// requesting source after the last one granted (round robin). One pass over
// the sources, O(sources + destinations).
template <typename Payload>
void Crossbar<Payload>::arbitrate() {
  std::fill(winner_.begin(), winner_.end(), kNone);
  for (uint32_t s = 0; s < cfg_.sources; ++s) {
    if (inputs_[s].empty()) continue;
    const uint32_t d = inputs_[s].front().dst;
    if (out_used_[d] >= cfg_.out_buffer_flits) continue;
    if (lock_[d] != kNone) {
      winner_[d] = lock_[d];
      continue;
    }
    // Sources are visited in increasing order, so the first one after the
    // last grant wins; failing that, the first one at or before it.
    const uint32_t w = winner_[d];
    if (w == kNone || (w <= last_grant_[d] && s > last_grant_[d])) winner_[d] = s;
  }
}

// Lanes: an output mid-packet keeps its input, and that source sends nothing
// else; every other source, in an order that rotates each cycle, takes the
// first of its lanes (rotating too) whose head's output is free. So each
// source sends at most one flit and each output takes at most one.
template <typename Payload>
void Crossbar<Payload>::arbitrate_lanes() {
  const uint32_t L = lanes(), S = cfg_.sources;
  std::fill(winner_.begin(), winner_.end(), kNone);
  std::fill(src_busy_.begin(), src_busy_.end(), uint8_t{0});
  for (uint32_t d = 0; d < cfg_.destinations; ++d) {
    if (lock_[d] == kNone) continue;
    src_busy_[lock_[d] / L] = 1;
    if (out_used_[d] < cfg_.out_buffer_flits) winner_[d] = lock_[d];
  }
  for (uint32_t i = 0; i < S; ++i) {
    const uint32_t s = first_src_ + i < S ? first_src_ + i : first_src_ + i - S;
    if (src_busy_[s] || in_used_[s] == 0) continue;  // in_used_: flits in all its lanes
    bool waiting = false;
    for (uint32_t j = 0, l = next_lane_[s]; j < L; ++j, l = l + 1 < L ? l + 1 : 0) {
      const uint32_t in = s * L + l;
      if (inputs_[in].empty()) continue;
      waiting = true;
      const uint32_t d = inputs_[in].front().dst;
      if (lock_[d] != kNone || winner_[d] != kNone || out_used_[d] >= cfg_.out_buffer_flits) continue;
      winner_[d] = in;
      next_lane_[s] = l + 1 < L ? l + 1 : 0;
      waiting = false;
      break;
    }
    if (waiting) ++src_counters_[idx(s, PortCounter::stall_cycles)];
  }
  first_src_ = first_src_ + 1 < S ? first_src_ + 1 : 0;
}

template <typename Payload>
void Crossbar<Payload>::count_stalls() {
  for (uint32_t s = 0; s < cfg_.sources; ++s) {
    if (inputs_[s].empty()) continue;
    const uint32_t d = inputs_[s].front().dst;
    if (winner_[d] == s) continue;
    ++src_counters_[idx(s, PortCounter::stall_cycles)];
    // A full output counts one stall per cycle, however many sources wait.
    if (out_used_[d] >= cfg_.out_buffer_flits && winner_[d] == kNone) {
      ++dst_counters_[idx(d, PortCounter::stall_cycles)];
      winner_[d] = kBlocked;
    }
  }
}

template <typename Payload>
void Crossbar<Payload>::move_flit(uint32_t in, uint32_t dst, Cycle now) {
  const uint32_t src = in / lanes();
  InPacket& p = inputs_[in].front();
  ++p.sent;
  --in_used_[src];
  ++out_used_[dst];
  ++src_counters_[idx(src, PortCounter::flits)];
  ++dst_counters_[idx(dst, PortCounter::flits)];
  if (p.sent < p.flits) {
    lock_[dst] = in;
    return;
  }
  lock_[dst] = kNone;
  last_grant_[dst] = src;
  outputs_[dst].push(Packet{p.payload, src, p.size_bytes, p.flits, now + cfg_.latency});
  ++src_counters_[idx(src, PortCounter::packets)];
  inputs_[in].pop();
  --queued_packets_;
  ++undelivered_packets_;
}

template <typename Payload>
const typename Crossbar<Payload>::Packet* Crossbar<Payload>::peek(uint32_t dst, Cycle now) const {
  const auto& q = outputs_[dst];
  if (q.empty() || q.front().ready_cycle > now) return nullptr;
  return &q.front();
}

template <typename Payload>
bool Crossbar<Payload>::pop(uint32_t dst, Cycle now, Packet& out) {
  if (peek(dst, now) == nullptr) return false;
  out = outputs_[dst].front();
  outputs_[dst].pop();
  out_used_[dst] -= out.flits;
  ++dst_counters_[idx(dst, PortCounter::packets)];
  --undelivered_packets_;
  return true;
}

template <typename Payload>
Cycle Crossbar<Payload>::next_event_cycle() const {
  if (queued_packets_ > 0) return after_;
  Cycle t = kIcntNever;
  if (undelivered_packets_ == 0) return t;
  for (const auto& q : outputs_)
    if (!q.empty() && q.front().ready_cycle < t) t = q.front().ready_cycle;
  return t;
}

template <typename Payload>
std::string Crossbar<Payload>::describe() const {
  return name_ + ": " + std::to_string(queued_packets_) + " packets at inputs, " +
         std::to_string(undelivered_packets_) + " undelivered at outputs";
}

}  // namespace accelsim::icnt
