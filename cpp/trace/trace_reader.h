// Streaming reader for Accel-Sim SASS traces (see docs/trace_format.md).
// A workload is the command list of kernelslist.g; a kernel trace is read one
// thread block at a time, so memory stays bounded whatever the file size.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/dim3.h"
#include "isa/inst_record.h"
#include "isa/isa_table.h"
#include "isa/record_stream.h"

namespace accelsim::trace {

using ::accelsim::Dim3;

// Header of one kernel-N.traceg.
struct KernelInfo {
  std::string path;           // the trace file
  std::string name;           // mangled kernel name
  uint32_t id = 0;
  Dim3 grid, block;
  uint32_t shmem_bytes = 0;
  uint32_t nregs = 0;
  uint32_t binary_version = 0;
  uint64_t stream = 0;
  uint64_t shmem_base = 0, local_base = 0;
  int tracer_version = 0;     // integer part; < 3 means the old tb/warp-prefixed layout
  bool lineinfo = false;
  uint32_t warps_per_block() const { return (block.count() + 31) / 32; }
};

// One thread block's decoded instructions, grouped by warp:
// insts[warp_begin[w] .. warp_begin[w+1]) belong to warp w, in trace order.
// An instruction with isa::kFlagHasAddrs has its lane addresses at
// addrs[addr_offset .. addr_offset+32) (inactive lanes hold 0).
struct ThreadBlockTrace {
  uint32_t index = 0;                 // position in the file (0-based)
  Dim3 coord;                         // "thread block = x,y,z"
  std::vector<isa::InstRecord> insts;
  std::vector<uint32_t> warp_begin;   // size warps_per_block + 1
  std::vector<uint64_t> addrs;
  // Set instead of insts/addrs when the block's records are produced while it
  // runs (PTX mode); warp_begin then only gives the warp count.
  std::shared_ptr<isa::RecordStream> stream;
  uint32_t num_warps() const { return warp_begin.empty() ? 0 : uint32_t(warp_begin.size() - 1); }
};

// Deviations a kernel trace may have (other tracer versions and forks) that
// are read anyway; reported once per file, with the first line of each.
struct TraceWarnings {
  uint64_t extra_field_lines = 0;  // instruction lines with fields after the immediate
  int64_t extra_field_line = 0;    // the first of them
  std::string extra_field;         // its first extra field, as written
  uint64_t exit_repeats = 0;       // EXITs whose mask repeats lanes that had exited
  int64_t exit_repeat_line = 0;    // the first of them
  bool any() const { return extra_field_lines || exit_repeats; }
  // One line for the user ("" when none), e.g. "12 instruction lines carry a
  // trailing field after the immediate (first at line 17: '0x3')".
  std::string summary() const;
};

class KernelTraceReader {
 public:
  // Parses the header; throws TraceError on a bad header. The ISA table is
  // chosen from the header's binary version through `isa`, which must
  // outlive the reader. Any TraceError from next_block() leaves the reader
  // unusable until rewind().
  KernelTraceReader(const std::string& path, const isa::IsaRegistry& isa);
  ~KernelTraceReader();
  KernelTraceReader(const KernelTraceReader&) = delete;
  KernelTraceReader& operator=(const KernelTraceReader&) = delete;

  const KernelInfo& info() const;
  const isa::IsaTable& isa() const;
  // Decodes the next thread block into `out` (buffers reused). Returns false
  // after the last one, having checked that the block count matches the grid.
  bool next_block(ThreadBlockTrace& out);
  // Back to the first thread block.
  void rewind();
  // What was read despite deviating from the format (blocks read so far).
  const TraceWarnings& warnings() const;
  // Bytes of decompressed text read so far (header included).
  uint64_t bytes_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One line of kernelslist.g.
struct Command {
  enum class Kind { Kernel, MemcpyHtoD, Other };
  Kind kind = Kind::Other;
  int64_t line = 0;          // line in kernelslist.g
  std::string text;          // the line as written
  std::string kernel_path;   // Kernel: resolved against the list's folder
  uint64_t address = 0;      // MemcpyHtoD: full 64-bit destination
  uint64_t bytes = 0;        // MemcpyHtoD
};

// Reads kernelslist.g (or a single kernel-N.traceg, as a one-kernel list).
std::vector<Command> read_command_list(const std::string& path);

}  // namespace accelsim::trace
