// A kernel launched from PTX: thread blocks are emulated when the dispatcher
// asks for them (in dispatch order) and handed over as the same records and
// per-lane addresses a trace gives, so the timing model runs unchanged.
#pragma once
#include <memory>
#include <vector>

#include "isa/isa_table.h"
#include "ptx/emulator.h"
#include "sim/kernel_source.h"

namespace accelsim::sim {

class PtxKernelSource : public KernelSource {
 public:
  // `launch` (module, arguments, device memory) and `isa` must outlive the run.
  PtxKernelSource(std::shared_ptr<const ptx::Launch> launch, std::shared_ptr<const isa::IsaTable> isa,
                  uint32_t id, uint64_t stream, uint32_t regs_per_thread);
  const trace::KernelInfo& info() const override { return info_; }
  const std::vector<std::string>& unit_class_names() const override { return isa_->unit_names(); }
  bool next_block(trace::ThreadBlockTrace& out) override;

  // Default generic-address windows of PTX mode (shared, local).
  static constexpr uint64_t kSharedWindow = 0x00007e0000000000ull;
  static constexpr uint64_t kLocalWindow = 0x00007f0000000000ull;

 private:
  std::shared_ptr<const ptx::Launch> launch_;
  std::shared_ptr<const isa::IsaTable> isa_;
  trace::KernelInfo info_;
  std::unique_ptr<ptx::CtaEmulator> emu_;
  ptx::BlockRecords recs_;
  uint64_t next_ = 0, total_ = 0;
};

}  // namespace accelsim::sim
