// Decodes a kernel's thread blocks ahead of the CTA dispatcher on a thread of
// its own, so that trace decoding (about a quarter of a run on the BFS trace)
// overlaps the simulation when a run has threads to spare. The blocks come
// out in the same order, with the same contents, and a reader error is raised
// at the same block, as when read directly: the result cannot change.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/kernel_source.h"

namespace accelsim::sim {

class ReadAheadSource final : public KernelSource {
 public:
  // Reads `inner` (which must outlive it) up to `depth` blocks ahead.
  ReadAheadSource(KernelSource& inner, size_t depth);
  ~ReadAheadSource() override;
  ReadAheadSource(const ReadAheadSource&) = delete;
  ReadAheadSource& operator=(const ReadAheadSource&) = delete;

  const trace::KernelInfo& info() const override { return inner_.info(); }
  const std::vector<std::string>& unit_class_names() const override {
    return inner_.unit_class_names();
  }
  bool next_block(trace::ThreadBlockTrace& out) override;

 private:
  void run();

  KernelSource& inner_;
  const size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<trace::ThreadBlockTrace> ready_;   // decoded, in order
  std::vector<trace::ThreadBlockTrace> spare_;  // buffers handed back, for reuse
  bool done_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the fields above exist
};

}  // namespace accelsim::sim
