#include "sim/ptx_kernel_source.h"

namespace accelsim::sim {

PtxKernelSource::PtxKernelSource(std::shared_ptr<const ptx::Launch> launch,
                                 std::shared_ptr<const isa::IsaTable> isa, uint32_t id, uint64_t stream,
                                 uint32_t regs_per_thread)
    : launch_(std::move(launch)), isa_(std::move(isa)) {
  const ptx::Launch& L = *launch_;
  const ptx::Function& fn = *L.prog->fn;
  info_.path = L.prog->module->path;
  info_.name = L.kernel;
  info_.id = id;
  info_.grid = {L.grid.x, L.grid.y, L.grid.z};
  info_.block = {L.block.x, L.block.y, L.block.z};
  const uint32_t static_shared = L.static_shared >= 0 ? uint32_t(L.static_shared) : fn.shared_bytes;
  info_.shmem_bytes = (static_shared + fn.dyn_shared_align - 1) / fn.dyn_shared_align * fn.dyn_shared_align +
                      L.dyn_shared;
  info_.nregs = regs_per_thread;
  info_.binary_version = L.prog->binary_version;
  info_.stream = stream;
  info_.shmem_base = L.shmem_base;
  info_.local_base = L.local_base;
  info_.tracer_version = 4;
  info_.lineinfo = true;
  total_ = L.grid.count();
}

bool PtxKernelSource::next_block(trace::ThreadBlockTrace& out) {
  if (next_ >= total_) return false;
  if (!emu_) emu_ = std::make_unique<ptx::CtaEmulator>(*launch_);
  emu_->run(next_, recs_);
  out.index = uint32_t(next_);
  out.coord = {uint32_t(next_ % info_.grid.x), uint32_t((next_ / info_.grid.x) % info_.grid.y),
               uint32_t(next_ / (uint64_t(info_.grid.x) * info_.grid.y))};
  out.insts.swap(recs_.insts);
  out.warp_begin.swap(recs_.warp_begin);
  out.addrs.swap(recs_.addrs);
  ++next_;
  return true;
}

}  // namespace accelsim::sim
