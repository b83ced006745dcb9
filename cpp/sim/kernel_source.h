// Where a kernel's thread blocks come from: a trace file read one block at a
// time, or blocks held in memory (tests, generated workloads).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/run_guard.h"
#include "isa/access_sink.h"
#include "trace/trace_reader.h"

namespace accelsim::sim {

class KernelSource {
 public:
  virtual ~KernelSource() = default;
  virtual const trace::KernelInfo& info() const = 0;
  // ISA unit class names (index = class id) for the unit mapping.
  virtual const std::vector<std::string>& unit_class_names() const = 0;
  // Next thread block (buffers reused); false after the last.
  virtual bool next_block(trace::ThreadBlockTrace& out) = 0;
  // What the trace had that the format does not allow but was read anyway
  // ("" when nothing): see trace::TraceWarnings.
  virtual std::string trace_warnings() const { return {}; }
  // Whether its blocks come as RecordStreams (produced while they run, at
  // serial points of the run: never read ahead on another thread).
  virtual bool streams() const { return false; }
  // The run this kernel belongs to, for sources that produce records while
  // it runs (PTX emulation polls it); null detaches. Outlives the blocks.
  virtual void watch(RunGuard* /*run*/) {}
  // Whether its blocks do more than produce records (PTX emulation writes
  // device memory): the blocks intra-kernel sampling never dispatches must
  // then still run, for their effects alone (run_effects).
  virtual bool has_effects() const { return false; }
  // Runs block `index` (not handed out by next_block) for its effects,
  // keeping no records; its memory accesses go to `sink` when not null.
  // False when the run asked it to stop (RunGuard) before the block ended.
  virtual bool run_effects(uint64_t /*index*/, isa::AccessSink* /*sink*/) { return true; }
};

// The fixed class names (alu, sp, int, ...) in UnitClass order.
const std::vector<std::string>& default_unit_class_names();

class TraceKernelSource : public KernelSource {
 public:
  TraceKernelSource(const std::string& path, const isa::IsaRegistry& isa)
      : reader_(path, isa) {}
  const trace::KernelInfo& info() const override { return reader_.info(); }
  const std::vector<std::string>& unit_class_names() const override {
    return reader_.isa().unit_names();
  }
  bool next_block(trace::ThreadBlockTrace& out) override { return reader_.next_block(out); }
  std::string trace_warnings() const override { return reader_.warnings().summary(); }

 private:
  trace::KernelTraceReader reader_;
};

class MemoryKernelSource : public KernelSource {
 public:
  MemoryKernelSource(trace::KernelInfo info, std::vector<trace::ThreadBlockTrace> blocks)
      : info_(std::move(info)), blocks_(std::move(blocks)) {}
  const trace::KernelInfo& info() const override { return info_; }
  const std::vector<std::string>& unit_class_names() const override {
    return default_unit_class_names();
  }
  bool next_block(trace::ThreadBlockTrace& out) override {
    if (next_ >= blocks_.size()) return false;
    out = blocks_[next_++];
    return true;
  }

 private:
  trace::KernelInfo info_;
  std::vector<trace::ThreadBlockTrace> blocks_;
  size_t next_ = 0;
};

}  // namespace accelsim::sim
