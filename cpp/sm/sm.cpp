// SM construction, the per-cycle recipe, and when to tick next.
#include "sm/sm.h"

#include <algorithm>

namespace accelsim::sm {

Sm::Sm(const SmParams& params, uint16_t id, MemPort* below)
    : p_(params),
      id_(id),
      max_warps_(p_.max_threads / std::max<uint32_t>(1, p_.warp_size)),
      issue_width_(p_.issue_width),
      fetch_(p_.fetch),
      ldst_(p_.ldst, id, below, &completions_) {
  count_into_own_storage();
  warps_.resize(max_warps_);
  ctas_.resize(p_.max_ctas);
  uint32_t schedulers = p_.schedulers;
  uint32_t sets = p_.sub_core_model ? schedulers : 1;
  unit_sets_.resize(sets);
  for (auto& s : unit_sets_) s.build(p_.units, sets, p_.ptx_timing);
  collectors_.resize(sets);  // the register file and its collectors split as the units do
  const uint32_t banks = p_.register_banks ? std::max<uint32_t>(1, p_.register_banks / sets) : 0;
  for (auto& c : collectors_) c.build(banks, p_.register_ports, p_.operand_collectors / sets, p_.register_reuse);
  SchedulerParams sp{p_.two_level_active_warps};
  for (uint32_t i = 0; i < schedulers; ++i)
    subcores_.push_back(SubCore{make_scheduler(p_.scheduler, sp), &unit_sets_[i % sets], &collectors_[i % sets]});
  fetch_.resize(max_warps_);
  below->connect(id, ldst_.responses());
}

void Sm::tick(Cycle now) {
  now_ = now;
  progress_ = false;
  ++counters_[tick_slot_].ticks;
  progress_ |= ldst_.deliver(now);  // data back from L1D / below
  writeback(now);                   // results retire, scoreboard released
  progress_ |= ldst_.send(now);     // L1D misses leave for the level below
  progress_ |= ldst_.access(now);   // LD/ST head instruction accesses memory
  issue(now);                       // schedulers issue to units / LD/ST
  if (fetch_.cycle(warps_, now)) {        // refill instruction buffers
    progress_ = true;
    for (uint16_t slot : fetch_.fetched()) refresh_candidate(warps_[slot]);
  }
  if (progress_) last_progress_ = now;
  wake_ = compute_wake(now);
}

Cycle Sm::compute_wake(Cycle now) const {
  if (resident_ctas_ == 0 && ldst_.idle()) return kNever;
  if (progress_) return now + 1;
  Cycle next = earliest(completions_.next_ready(), ldst_.next_event(now));
  for (const auto& set : unit_sets_) next = earliest(next, set.next_free_after(now));
  if (p_.register_banks)  // the register file is timed (off: no collector ever waits)
    for (const auto& c : collectors_) next = earliest(next, c.next_free_after(now));
  for (const Warp& w : warps_)
    if (w.active && w.decode_ready > now) next = earliest(next, w.decode_ready);
  return latest(next, now + 1);
}

void Sm::account(Cycle now) {
  if (now <= accounted_until_) return;
  uint64_t dt = now - accounted_until_;
  for (uint32_t s = 0; s < stat_.slots; ++s) {  // each stream's share of the SM
    counters_[s].warp_cycles += uint64_t(slot_warps_[s]) * dt;
    if (slot_ctas_[s] > 0) counters_[s].active_cycles += dt;
  }
  accounted_until_ = now;
}

void Sm::configure_kernel(uint32_t shmem_carveout_bytes) {
  shmem_capacity_ = shmem_carveout_bytes;
  int64_t l1 = p_.adaptive_l1_shmem ? p_.unified_l1_shmem_size - int64_t(shmem_carveout_bytes)
                                     : p_.l1d_size;
  ldst_.set_l1d_size(std::max<int64_t>(0, l1));
  fetch_.invalidate();
  for (auto& s : unit_sets_) s.reset();
  for (auto& c : collectors_) c.reset();
}

std::string Sm::describe() const {
  std::string s = "sm[" + std::to_string(id_) + "]: " + std::to_string(resident_ctas_) +
                  " CTAs, " + std::to_string(used_warps_) + " warps";
  uint32_t barrier = 0, scoreboard = 0, pending = 0;
  for (const Warp& w : warps_) {
    if (!w.active || w.finished) continue;
    barrier += w.at_barrier;
    scoreboard += !w.ibuffer_empty() && w.scoreboard.collides(w.head());
    pending += w.all_issued();
  }
  s += " (" + std::to_string(barrier) + " at a barrier, " + std::to_string(scoreboard) +
       " waiting on registers, " + std::to_string(pending) + " draining)";
  s += "; " + std::to_string(completions_.size()) + " results in flight";
  if (!completions_.empty()) s += " (next at cycle " + std::to_string(completions_.next_ready().count()) + ")";
  s += "\n  " + ldst_.describe() + "; last ticked at cycle " + std::to_string(now_.count());
  return s;
}

}  // namespace accelsim::sm
