// PTX mode's commands, typed: what a host program asks of a simulated GPU
// (launch a PTX kernel, copy bytes either way) and the one function that
// runs a list of them on a GPU session. Both PTX front ends build these: the
// Python Device (through the bindings) and the CUDA runtime library
// (cudart/), so a kernel launched either way is timed by the same code.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "isa/isa_table.h"
#include "ptx/device_memory.h"
#include "ptx/emulator.h"
#include "ptx/module.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/sass_guided.h"
#include "sim/gpu_session.h"
#include "sim/ptx_kernel_source.h"
#include "sim/run_result.h"

namespace accelsim::sim {

// The data tables PTX mode reads (configs/ptx/opcodes.txt and lowering.txt,
// configs/isa), loaded once and shared read-only by every module and launch.
struct PtxTables {
  ptx::OpcodeTable opcodes;
  ptx::LoweringTable lowering;
  std::shared_ptr<isa::IsaRegistry> isa;

  // `unit_overrides`: a config's opcode_units, applied as the SASS path does.
  static std::shared_ptr<PtxTables> load(
      const std::string& opcodes_path, const std::string& lowering_path, const std::string& isa_dir,
      const std::vector<std::pair<std::string, std::string>>& unit_overrides = {});
  // The same from a data folder holding ptx/ and isa/ (configs/).
  static std::shared_ptr<PtxTables> load_dir(
      const std::string& data_dir, const std::vector<std::pair<std::string, std::string>>& unit_overrides = {});
  // The ISA table of a SASS generation (70 = Volta), kept alive by the tables.
  std::shared_ptr<const isa::IsaTable> isa_table(uint32_t binary_version) const;
};

// One kernel launch (cudaLaunchKernel, kernel[grid, block](...)).
struct PtxLaunchCommand {
  std::shared_ptr<const ptx::Module> module;
  std::string kernel;                       // the .entry's name (mangled as in the PTX)
  ptx::Dim grid{1, 1, 1}, block{1, 1, 1};
  uint32_t dyn_shared = 0;                  // dynamic shared memory bytes
  std::vector<uint8_t> params;              // the parameter buffer, laid out as the .entry's .params
  std::vector<uint64_t> globals;            // device address of each of the module's globals
  std::shared_ptr<ptx::DeviceMemory> memory;
  uint64_t stream = 0;
  uint32_t regs_per_thread = 32;            // occupancy: PTX registers are virtual
  int64_t static_shared = -1;               // ptxas's static shared bytes; -1: the PTX's
  ptx::RecordMode records = ptx::RecordMode::kLowered;
  std::shared_ptr<const ptx::SassGuide> sass;  // records="sass": replaces the lowered records
  // The SASS generation of this launch's records; 0: the run's. A SASS guide
  // of a GPU older than nvdisasm's oldest target (sm_75) names its own.
  uint32_t binary_version = 0;
  uint32_t sm_count = 80;                   // %nsmid
  uint64_t max_warp_insts = uint64_t(1) << 24;
  uint32_t chunk_records = 128;             // records per warp per refill (0: whole blocks)
};

// One copy on a copy engine (cudaMemcpy / cudaMemcpyAsync, copy_to_host, ...).
struct CopyCommand {
  bool to_host = false;
  uint64_t address = 0, bytes = 0;          // the device side
  // nullopt: synchronous (after all earlier work; later work waits for it);
  // else ordered with that stream's commands only.
  std::optional<uint64_t> stream;
  std::shared_ptr<ptx::DeviceMemory> memory;  // null: timing only, no bytes move
  // The bytes move when the copy starts in the run (so it sees what kernels
  // before it wrote). To device: `data` is written then (empty: the bytes
  // are in place already). To host: `deliver` gets the bytes then.
  std::shared_ptr<const std::vector<uint8_t>> data;
  std::function<void(const uint8_t* bytes, uint64_t n)> deliver;
  // Called as the copy starts, before its bytes move: an operation that
  // rides on a copy's place in the stream (the CUDA runtime's
  // device-to-device copies and memsets, as zero-byte copies).
  std::function<void()> on_start;
};

using PtxCommand = std::variant<PtxLaunchCommand, CopyCommand>;

// The emulator's view of a launch (module prepared for the GPU's ISA).
// Throws PtxError for a kernel the module lacks or cannot run.
std::shared_ptr<const ptx::Launch> make_launch(const PtxTables& tables, const PtxLaunchCommand& cmd,
                                               uint32_t binary_version);
// A launch's blocks as a kernel source (`streamed`: bounded chunks while
// resident, for timing; else whole blocks, for save_trace).
std::unique_ptr<PtxKernelSource> make_kernel_source(const PtxTables& tables, const PtxLaunchCommand& cmd,
                                                    uint32_t binary_version, uint32_t id, bool streamed);

// A copy's data movement alone, now (no timing): what save_trace-style
// runs do in command order instead of timing.
void apply_copy(const CopyCommand& c);

// How the streamed blocks of a run behaved (Device.stream_stats).
struct PtxStreamTotals {
  uint64_t max_buffered = 0, refills = 0, dry_waits = 0;
};

struct PtxRunOptions {
  uint32_t binary_version = 70;  // the SASS generation records use
  uint32_t first_id = 1;         // kernel ids continue across a device's runs
  RunOptions run;                // cycle budget
  GpuSession::PollHook poll;     // stops the run when it returns true (Ctrl-C)
};

using PtxStreamHandle = std::shared_ptr<const PtxKernelSource::StreamStats>;

// The commands as one workload for GpuSession::run / start (kernel ids count
// from `first_id`); `streams`, if given, receives each launch's record
// statistics, readable once the run is over.
Workload ptx_workload(const PtxTables& tables, std::vector<PtxCommand> commands, uint32_t binary_version,
                      uint32_t first_id, std::vector<PtxStreamHandle>* streams = nullptr);
PtxStreamTotals sum_stream_stats(const std::vector<PtxStreamHandle>& streams);

// Runs `commands` in order on `session`'s GPU (the clock and caches go on
// from its previous run). Copies move their bytes as they start.
RunResult run_ptx_commands(GpuSession& session, const PtxTables& tables, std::vector<PtxCommand> commands,
                           const PtxRunOptions& opts, PtxStreamTotals* totals = nullptr);

}  // namespace accelsim::sim
