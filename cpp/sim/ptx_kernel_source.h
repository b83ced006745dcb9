// A kernel launched from PTX: thread blocks are emulated when the dispatcher
// asks for them (in dispatch order) and handed over as the same records and
// per-lane addresses a trace gives, so the timing model runs unchanged.
// Streamed (the timing run): a block is handed over as a RecordStream that
// emulates its warps in chunks while it is resident, so memory is bounded by
// the resident warps, not by the kernel's length. Whole (save_trace): each
// block is emulated to completion by next_block.
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
                  uint32_t id, uint64_t stream, uint32_t regs_per_thread, bool streamed = false);
  const trace::KernelInfo& info() const override { return info_; }
  const std::vector<std::string>& unit_class_names() const override { return isa_->unit_names(); }
  bool next_block(trace::ThreadBlockTrace& out) override;
  bool streams() const override { return streamed_; }
  // Emulation polls the run (Ctrl-C, the cycle budget; base/run_guard.h).
  void watch(RunGuard* run) override { guard_ = run; }
  bool has_effects() const override { return true; }
  bool run_effects(uint64_t index, isa::AccessSink* sink) override;

  // Streamed blocks, over the whole run: the most records one warp held at
  // once, and how many refills ran.
  struct StreamStats {
    uint64_t max_buffered = 0;
    uint64_t refills = 0;
    uint64_t dry_waits = 0;  // a warp had issued all it had before its refill came
  };
  const StreamStats& stream_stats() const { return *stats_; }
  // The same, shared: readable after the source is gone (bindings).
  std::shared_ptr<const StreamStats> stream_stats_handle() const { return stats_; }

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
  bool streamed_ = false;
  RunGuard* guard_ = nullptr;
  std::shared_ptr<StreamStats> stats_ = std::make_shared<StreamStats>();
};

}  // namespace accelsim::sim
