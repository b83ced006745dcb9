#include "sim/cta_dispatcher.h"

#include <algorithm>

namespace accelsim::sim {

CtaDispatcher::Kernel& CtaDispatcher::launch(KernelSource& src, const Occupancy& occ,
                                             const std::vector<sm::UnitKind>& kinds, Cycle start,
                                             uint8_t stream) {
  auto k = std::make_unique<Kernel>();
  k->uid = next_uid_++;
  const trace::KernelInfo& info = src.info();
  k->src = &src;
  k->occ = occ;
  k->units.build(kinds, src.unit_class_names());
  k->shape = sm::CtaShape{info.id, occ.threads_per_cta, occ.warps_per_cta, occ.registers_per_cta,
                          info.shmem_bytes, occ.ctas_per_sm, &k->units, &k->resident, stream};
  k->start = start;
  k->have_next = src.next_block(k->next_tb);
  kernels_.push_back(std::move(k));
  room_ = true;
  return *kernels_.back();
}

void CtaDispatcher::dispatch(std::vector<std::unique_ptr<sm::Sm>>& sms, Cycle now) {
  if (!room_) return;
  bool launched = false, tried = false;
  size_t n = sms.size();
  for (auto& k : kernels_) {
    if (!k->have_next || now < k->start) continue;
    tried = true;
    const size_t base = next_sm_;
    for (size_t i = 0; i < n && k->have_next; ++i) {
      sm::Sm& s = *sms[(base + i) % n];
      if (s.launched_this_cycle(now) || !admit(s, (base + i) % n, *k)) continue;
      ++k->resident;  // before launch: an empty CTA retires inside it
      ++k->dispatched;
      k->first_cta = earliest(k->first_cta, now);
      s.launch(k->shape, k->next_tb, now);
      launched = true;
      next_sm_ = uint32_t((base + i + 1) % n);
      k->have_next = k->src->next_block(k->next_tb);
    }
  }
  if (tried) room_ = launched;  // nothing fitted: wait for a retirement
}

bool CtaDispatcher::admit(sm::Sm& s, size_t i, const Kernel& k) {
  if (sm_kernel_[i] == k.uid) return s.can_launch(k.shape);
  if (s.has_ctas())  // another kernel's CTAs are resident
    return share_sms_ && sm_carveout_[i] == k.occ.shmem_carveout && s.can_launch(k.shape);
  // Empty: set it up for k (L1D / shared split; L1 invalidated, as at a
  // kernel boundary).
  s.configure_kernel(k.occ.shmem_carveout);
  sm_kernel_[i] = k.uid;
  sm_carveout_[i] = k.occ.shmem_carveout;
  return s.can_launch(k.shape);
}

Cycle CtaDispatcher::next_cycle(Cycle now) const {
  Cycle next = sm::Sm::kNever;
  for (const auto& k : kernels_)
    if (k->have_next && (room_ || now < k->start)) next = earliest(next, latest(k->start, now + 1));
  return next;
}

void CtaDispatcher::drop_finished() {
  kernels_.erase(std::remove_if(kernels_.begin(), kernels_.end(),
                                [](const auto& k) { return k->finished(); }),
                 kernels_.end());
}

}  // namespace accelsim::sim
