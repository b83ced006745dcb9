#include "sim/ptx_kernel_source.h"

#include <algorithm>

namespace accelsim::sim {

PtxKernelSource::PtxKernelSource(std::shared_ptr<const ptx::Launch> launch,
                                 std::shared_ptr<const isa::IsaTable> isa, uint32_t id, uint64_t stream,
                                 uint32_t regs_per_thread, bool streamed)
    : launch_(std::move(launch)), isa_(std::move(isa)), streamed_(streamed) {
  const ptx::Launch& L = *launch_;
  info_.path = L.prog->module->path;
  info_.name = L.kernel;
  info_.id = id;
  info_.grid = {L.grid.x, L.grid.y, L.grid.z};
  info_.block = {L.block.x, L.block.y, L.block.z};
  // the kernel's and its .funcs' static shared memory (ptx::Program), or ptxas's figure
  const uint32_t static_shared = L.static_shared >= 0 ? uint32_t(L.static_shared) : L.prog->shared_bytes;
  const uint32_t align = L.prog->dyn_shared_align;
  info_.shmem_bytes = (static_shared + align - 1) / align * align + L.dyn_shared;
  info_.nregs = regs_per_thread;
  info_.binary_version = L.prog->binary_version;
  info_.stream = stream;
  info_.shmem_base = L.shmem_base;
  info_.local_base = L.local_base;
  info_.tracer_version = 4;
  info_.lineinfo = true;
  total_ = L.grid.count();
}

namespace {

// One resident block: its own emulator, run a chunk at a time.
class PtxCtaStream final : public isa::RecordStream {
 public:
  PtxCtaStream(std::shared_ptr<const ptx::Launch> launch, uint64_t index, PtxKernelSource::StreamStats* stats,
               RunGuard* guard)
      : launch_(std::move(launch)), emu_(*launch_), stats_(stats) {
    emu_.set_guard(guard);
    const uint32_t chunk = launch_->chunk_records;
    chunk_ = chunk ? chunk : UINT32_MAX;
    low_ = chunk ? std::max<uint32_t>(1, chunk / 4) : 0;
    target_.assign(emu_.num_warps(), 0);
    emu_.start(index);
  }
  uint32_t num_warps() const override { return emu_.num_warps(); }
  isa::WarpWindow window(uint32_t w) const override { return emu_.window(w); }
  uint32_t low_water() const override { return low_; }
  void refill(const uint64_t* issued, const uint64_t* keep) override {
    for (uint32_t w = 0; w < emu_.num_warps(); ++w) {
      emu_.drop(w, keep[w]);
      if (issued[w] > 0 && issued[w] == emu_.produced(w) && emu_.window(w).more) ++stats_->dry_waits;
      target_[w] = issued[w] + chunk_;  // saturates for whole blocks (chunk_ = UINT32_MAX)
    }
    emu_.produce(target_.data());
    ++stats_->refills;
    for (uint32_t w = 0; w < emu_.num_warps(); ++w)
      stats_->max_buffered = std::max(stats_->max_buffered, emu_.buffered(w));
  }

 private:
  std::shared_ptr<const ptx::Launch> launch_;
  ptx::CtaEmulator emu_;
  PtxKernelSource::StreamStats* stats_;  // the source's: refills run serially
  uint32_t chunk_ = 0, low_ = 0;
  std::vector<uint64_t> target_;
};

}  // namespace

bool PtxKernelSource::next_block(trace::ThreadBlockTrace& out) {
  if (next_ >= total_) return false;
  out.index = uint32_t(next_);
  out.coord = {uint32_t(next_ % info_.grid.x), uint32_t((next_ / info_.grid.x) % info_.grid.y),
               uint32_t(next_ / (uint64_t(info_.grid.x) * info_.grid.y))};
  if (streamed_) {  // emulated once resident (Sm::launch asks for the first chunk)
    auto s = std::make_shared<PtxCtaStream>(launch_, next_, stats_.get(), guard_);
    out.insts.clear();
    out.addrs.clear();
    out.warp_begin.assign(size_t(s->num_warps()) + 1, 0);
    out.stream = std::move(s);
    ++next_;
    return true;
  }
  if (!emu_) emu_ = std::make_unique<ptx::CtaEmulator>(*launch_);
  emu_->set_guard(guard_);
  emu_->run(next_, recs_);
  out.stream.reset();
  out.insts.swap(recs_.insts);
  out.warp_begin.swap(recs_.warp_begin);
  out.addrs.swap(recs_.addrs);
  ++next_;
  return true;
}

// Blocks sampling skipped: one emulator, reset per block, records never built.
bool PtxKernelSource::run_effects(uint64_t index, isa::AccessSink* sink) {
  if (!emu_) emu_ = std::make_unique<ptx::CtaEmulator>(*launch_);
  emu_->set_guard(guard_);
  return emu_->run_effects(index, sink);
}

}  // namespace accelsim::sim
