// The simulator's CUDA runtime: the state behind every cuda* call of one
// program. A CUDA runtime is process-wide by nature (the program's kernels
// register themselves from static constructors), so there is one Runtime
// per process, built on first use from what the launcher (`accelsim cuda`)
// put in the environment. It sits above the core like bindings/: it builds
// typed PTX commands (sim/ptx_commands.h) and runs them on one GPU session.
//
// Work is queued and simulated at the points where the program waits for
// the GPU (a synchronous copy to the host, cudaDeviceSynchronize, stream and
// event synchronization, exit): each such point is one run of the session,
// whose clock, caches and DRAM state go on from the previous run.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/gpu_config.h"
#include "host_memory.h"
#include "sass_guides.h"
#include "ptx/device_memory.h"
#include "ptx/fatbin.h"
#include "ptx/module.h"
#include "sim/gpu_session.h"
#include "sim/ptx_commands.h"
#include "sim/run_result.h"

namespace accelsim::cudart {

// One registered fat binary (a translation unit's kernels and variables).
struct Fatbin {
  const void* wrapper = nullptr;
  std::string where;                            // the file holding it, for messages
  std::shared_ptr<const ptx::Module> module;    // parsed on first use
  std::vector<uint64_t> globals;                // device address of each module global
  std::map<std::string, KernelGuide> sass;      // records=sass: per kernel
  bool loaded = false;
};

struct Kernel {  // a __global__ function, keyed by its host stub
  Fatbin* fatbin = nullptr;
  std::string name;                             // the .entry's (mangled) name
  int max_dynamic_shared = 48 * 1024;           // cudaFuncAttributeMaxDynamicSharedMemorySize
  int carveout = -1;                            // cudaFuncAttributePreferredSharedMemoryCarveout
  int cache_config = 0;                         // cudaFuncSetCacheConfig
};

struct Variable {  // a __device__, __constant__ or __managed__ variable
  Fatbin* fatbin = nullptr;
  std::string name;
  size_t size = 0;
  bool constant = false, managed = false;
  void** managed_slot = nullptr;                // the host's pointer to a managed variable
};

struct Stream {
  uint64_t id = 0;
  bool nonblocking = false;                     // cudaStreamNonBlocking: no sync with stream 0
  int priority = 0;
};

// An event marks the last command of its stream when recorded; its time is
// that command's end on the simulated clock (the clock then if none).
struct Event {
  bool recorded = false;
  std::optional<size_t> pending;                // index of the marked command in the queue
  uint64_t cycle = 0;                           // resolved time (core cycles)
  unsigned flags = 0;
};

// What each queued command is, beside the command itself.
struct QueuedInfo {
  enum Kind { kKernel, kHtoD, kDtoH, kDtoD, kMemset } kind = kKernel;
  uint64_t stream = 0;
  bool sync = false;                            // cudaMemcpy: waits for everything before it
  uint64_t bytes = 0;                           // copies: bytes the program moved
  std::vector<Event*> events;                   // events marking this command
};

// A copy as the program's result lists it (DtoD and memset move bytes at
// their place in the stream but take no simulated time yet).
struct CopyEntry {
  std::string direction;                        // HtoD, DtoH, DtoD, Memset
  sim::CopyRecord rec;
};

class Runtime {
 public:
  static Runtime& get();                        // the process's runtime (built on first call)
  std::recursive_mutex mu;                      // one API call at a time

  // ---- registration (static constructors) ----
  Fatbin* register_fatbin(const void* wrapper);
  void register_kernel(Fatbin* f, const void* host_fun, const char* name);
  void register_variable(Fatbin* f, const void* host_var, const char* name, size_t size, bool constant,
                         void** managed_slot);
  void init_module(Fatbin* f);                  // __cudaInitModule: managed variables become usable

  // ---- lookups (nullptr when unknown) ----
  Kernel* kernel(const void* host_fun);
  // The kernel's .entry in its (loaded) module; ends the program if missing.
  const ptx::Function& function(Kernel& k);
  uint32_t regs_per_thread() const { return regs_per_thread_; }
  // The variable's device address (loading its module); 0 when unknown.
  uint64_t variable_address(const void* host_var, size_t* size = nullptr);

  // ---- queue and run ----
  cudaError_t launch(Kernel& k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream);
  // `bytes`: what the result lists (a zero-byte timing stand-in moves more).
  void enqueue_copy(sim::CopyCommand c, QueuedInfo::Kind kind, uint64_t stream, bool sync, uint64_t bytes);
  // Runs everything queued (a synchronization point). Ends the program on a
  // simulation error or the cycle budget (after writing the result).
  void synchronize();
  bool stream_idle(uint64_t stream) const;      // nothing of it queued
  void record_event(Event& e, cudaStream_t stream);
  void stream_wait(cudaStream_t stream, Event& e);
  uint64_t stream_id(cudaStream_t s) const;     // 0 for the legacy default stream
  Stream* new_stream(unsigned flags, int priority);
  void destroy_stream(Stream* s);

  // ---- memory ----
  ptx::DeviceMemory& memory() { return *mem_; }
  std::shared_ptr<ptx::DeviceMemory> memory_ptr() const { return mem_; }
  HostMemory& host() { return host_; }
  // 0 when the device memory (the config's dram_capacity) cannot hold it
  uint64_t malloc_device(size_t bytes);
  uint64_t device_bytes() const { return cfg_.dram_capacity; }
  uint64_t device_bytes_in_use() const { return live_bytes_; }
  void* malloc_mapped(size_t bytes);            // managed / pinned: one address for host and device
  bool free_device(uint64_t addr);
  bool free_mapped(void* p);
  // True when [p, p + n) is device-addressable (a device or mapped allocation).
  bool device_addressable(uint64_t p, uint64_t n) const { return mem_->valid(p, n); }

  // ---- device facts ----
  const config::GpuConfig& config() const { return cfg_; }
  double core_clock_mhz() const { return cfg_.core_clock; }
  uint64_t now_cycles() const { return session_ ? session_->now().count() : 0; }

  // ---- errors ----
  static cudaError_t& last_error();             // per host thread, as CUDA's
  static cudaError_t fail(cudaError_t e);       // records e as the last error, returns it

  // Ends the program: writes the result (status "error"), prints `msg`.
  [[noreturn]] void fatal(const std::string& msg, int exit_code = 1);
  // At exit: runs what is queued and writes the result file.
  void finish();

 private:
  Runtime();
  void load(Fatbin& f);
  std::vector<ptx::PtxText> ptx_of(const Fatbin& f);
  void run_queue();
  std::string for_the_launcher(std::string msg);
  void absorb(const sim::RunResult& r, std::vector<QueuedInfo>& info);
  void flush_for_stream_order(uint64_t stream);
  void write_result(const std::string& status, const std::string& error);
  void dump_queue(std::vector<sim::PtxCommand>& queue, std::vector<QueuedInfo>& info);  // --save-trace

  config::GpuConfig cfg_;
  std::string data_dir_, result_path_, config_path_, trace_dir_, sass_dir_, cuobjdump_;
  std::shared_ptr<sim::PtxTables> tables_;
  std::shared_ptr<sim::GpuSession> session_;
  std::shared_ptr<ptx::DeviceMemory> mem_;
  HostMemory host_;
  ptx::RecordMode records_ = ptx::RecordMode::kLowered;
  uint32_t arch_ = 70, regs_per_thread_ = 32;
  uint64_t max_cycles_ = UINT64_MAX;

  std::vector<std::unique_ptr<Fatbin>> fatbins_;
  std::unordered_map<const void*, Kernel> kernels_;
  std::unordered_map<const void*, Variable> variables_;
  std::vector<std::unique_ptr<Stream>> streams_;
  uint64_t next_stream_ = 1;

  std::vector<sim::PtxCommand> queue_;
  std::vector<QueuedInfo> queued_;
  std::map<uint64_t, size_t> last_of_stream_;   // stream -> index of its last queued command
  std::map<uint64_t, uint64_t> stream_end_;     // stream -> end cycle of its last finished command

  // ---- the program's result so far ----
  std::vector<stats::KernelRecord> kernel_records_;
  std::vector<std::string> kernel_mangled_;
  std::vector<CopyEntry> copies_;
  sim::RunResult facts_;                        // GPU facts (sm_count, period, ...)
  uint32_t runs_ = 0, next_kernel_id_ = 1, traced_kernels_ = 0;
  double sim_wall_s_ = 0, start_wall_s_ = 0;    // time inside runs; process start
  bool flush_caches_ = false;                    // drop L2's lines before each kernel
  sim::IntraSampling intra_;                     // intra-kernel sampling (ACCELSIM_CUDA_SAMPLE)
  uint64_t max_warp_insts_ = uint64_t(1) << 24;  // per warp: ends a kernel that loops for ever
  std::unordered_map<uint64_t, uint64_t> live_;  // device allocation -> its span (cudaFree gives it back)
  uint64_t live_bytes_ = 0;
  double startup_s_ = 0;                         // the constructor: config, ISA tables, session
 public:
  // Wall time inside API calls (the outermost of nested ones), simulation included.
  int api_depth = 0;
  double api_t0 = 0, api_wall_s_ = 0;

 private:
  bool finished_ = false;
  friend struct ResultWriter;
};

}  // namespace accelsim::cudart
