// The parts of a WorkloadRun that RunOptions switch on: a fresh GPU per
// command (flush) with the run's clock kept across GPUs, and stretches of
// warm-up commands whose counts are left out of the result.
#include "sim/workload_run.h"

#include "base/error.h"

namespace accelsim::sim {

// A flushed run starts every command on an idle, fresh GPU; warm-up starts
// and ends with the GPU idle, so no counted work overlaps it.
bool WorkloadRun::ready_for(size_t item) {
  if (copy_started_) return true;  // a synchronous copy resumed
  const bool warm_item = warm(item);
  if (!opts_.flush && warm_item == in_warm_) return true;
  if (!idle()) return false;
  if (opts_.flush && gpu_used_) fresh_gpu();
  if (warm_item != in_warm_) set_warm(warm_item);
  return true;
}

// The next GPU counts on into the same statistics; its clock starts at 0,
// where the run's clock has reached `epoch_`.
void WorkloadRun::fresh_gpu() {
  if (!cfg_) throw Error("a run on a GPU it was given cannot flush (no config to build another)");
  epoch_ += gpu_->now().count();
  gpu_ptr_ = std::make_shared<Gpu>(*cfg_, nullptr, gpu_->stats());
  gpu_ = gpu_ptr_.get();
  gpu_->set_intra_sampling(opts_.intra);
  gpu_used_ = false;
}

void WorkloadRun::set_warm(bool on) {
  stats::Snapshot counts = gpu_->stats()->registry.snapshot();
  if (on) {
    warm_start_ = std::move(counts);
  } else {
    stats::accumulate(warm_total_, stats::difference(counts, warm_start_));
    warm_start_ = {};
  }
  in_warm_ = on;
}

// At the run's end: the result's statistics leave out what warm-up counted.
void WorkloadRun::finish_warmup() {
  if (in_warm_) set_warm(false);
  if (warm_total_.values.empty()) return;
  const std::shared_ptr<stats::RunStats>& all = gpu_->stats();
  result_.stats = all->since(warm_total_, first_row_, all->registry.stream_slots());
  warm_total_ = {};
}

// A warm-up kernel replayed into the caches instead of simulated: its
// record says Warmup and skipped (no time, no counts).
void WorkloadRun::warm_functionally(WorkItem& item) {
  stats::KernelRecord& rec = result_.kernels[add_record(item)];
  std::unique_ptr<KernelSource> src = open_kernel(item, isa_.get());
  gpu_->warm_caches(*src);
  gpu_used_ = true;
  rec.skipped = true;
  rec.status = stats::KernelStatus::Warmup;
  rec.grid_ctas = item.info.grid.count();
  rec.threads_per_cta = uint32_t(item.info.block.count());
  rec.launch_cycle = rec.start_cycle = rec.first_cta_cycle = rec.end_cycle = now();
  rec.trace_warnings = src->trace_warnings();
  ++kernels_done_;
}

Cycle WorkloadRun::gpu_limit() const {
  if (opts_.max_cycles == UINT64_MAX) return Cycle::max();
  return Cycle(opts_.max_cycles > epoch_ ? opts_.max_cycles - epoch_ : 0);
}

// A record the GPU stamped on its own clock, onto the run's.
void WorkloadRun::to_run_clock(stats::KernelRecord& rec) const {
  if (epoch_ == 0) return;
  for (uint64_t* t : {&rec.launch_cycle, &rec.start_cycle, &rec.first_cta_cycle, &rec.end_cycle})
    *t += epoch_;
  if (rec.simulated_end_cycle) rec.simulated_end_cycle += epoch_;
}

}  // namespace accelsim::sim
