#include "runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/error.h"
#include "config/config_text.h"
#include "cuobjdump.h"
#include "ptx/fatbin.h"
#include "ptx/ptx_error.h"
#include "signals.h"
#include "sim/gpu_params.h"

namespace accelsim::cudart {

double wall_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

namespace {

std::string env(const char* name, const char* fallback = "") {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

[[noreturn]] void startup_error(const std::string& msg) {
  std::fprintf(stderr,
               "accelsim cuda: %s\n(this is accelsim's CUDA runtime library standing in for libcudart; run "
               "the program as `accelsim cuda -- PROGRAM ARGS`)\n",
               msg.c_str());
  std::fflush(nullptr);
  std::_Exit(1);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) startup_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t env_number(const char* name, uint64_t fallback) {
  const std::string v = env(name);
  if (v.empty()) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (*end != '\0') startup_error(std::string(name) + "='" + v + "' is not a number");
  return n;
}

// ACCELSIM_CUDA_SAMPLE: "intra" or "intra:tolerance=X,window=N,min_waves=N,warm_tail=0|1"
// (the launcher writes every key; accelsim.IntraKernelSampling checks them
// first, so these checks catch a hand-set variable).
sim::IntraSampling intra_from_env() {
  sim::IntraSampling o;
  const std::string v = env("ACCELSIM_CUDA_SAMPLE");
  if (v.empty()) return o;
  auto bad = [&](const std::string& why) {
    startup_error("ACCELSIM_CUDA_SAMPLE='" + v + "': " + why +
                  " (expected 'intra' or 'intra:tolerance=X,window=N,min_waves=N,warm_tail=0|1')");
  };
  const size_t colon = v.find(':');
  if (v.substr(0, colon) != "intra") bad("the only kind is 'intra'");
  o.enabled = true;
  std::stringstream items(colon == std::string::npos ? std::string() : v.substr(colon + 1));
  for (std::string item; std::getline(items, item, ',');) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') bad("'" + item + "' is not key=number");
    if (key == "tolerance" && x > 0 && x <= 1) o.tolerance = x;
    else if (key == "window" && x >= 2 && x <= 1000 && x == double(uint32_t(x))) o.window = uint32_t(x);
    else if (key == "min_waves" && x >= 1 && x <= 1e6 && x == double(uint32_t(x))) o.min_waves = uint32_t(x);
    else if (key == "warm_tail" && (x == 0 || x == 1)) o.warm_tail = x == 1;
    else bad("'" + item + "': unknown key or value out of range");
  }
  return o;
}

}  // namespace

Runtime& Runtime::get() {
  static Runtime* rt = new Runtime();  // never destroyed: in use until the process ends
  return *rt;
}

Runtime::Runtime() {
  start_wall_s_ = wall_seconds();
  config_path_ = env("ACCELSIM_CUDA_CONFIG");
  data_dir_ = env("ACCELSIM_CUDA_DATA");
  if (config_path_.empty() || data_dir_.empty()) startup_error("ACCELSIM_CUDA_CONFIG / ACCELSIM_CUDA_DATA are not set");
  result_path_ = env("ACCELSIM_CUDA_RESULT");
  trace_dir_ = env("ACCELSIM_CUDA_TRACE");
  const std::string records = env("ACCELSIM_CUDA_RECORDS", "lowered");
  sass_dir_ = env("ACCELSIM_CUDA_SASS_GUIDES");
  cuobjdump_ = env("ACCELSIM_CUDA_CUOBJDUMP");
  if (records == "ptx") records_ = ptx::RecordMode::kPtx;
  else if (records == "sass" && sass_dir_.empty()) startup_error("records 'sass' without ACCELSIM_CUDA_SASS_GUIDES");
  else if (records != "lowered" && records != "sass")
    startup_error("ACCELSIM_CUDA_RECORDS='" + records + "': 'lowered', 'ptx' or 'sass'");
  max_cycles_ = env_number("ACCELSIM_CUDA_MAX_CYCLES", UINT64_MAX);
  regs_per_thread_ = uint32_t(env_number("ACCELSIM_CUDA_REGS", 32));
  flush_caches_ = env_number("ACCELSIM_CUDA_FLUSH_CACHES", 0) != 0;
  intra_ = intra_from_env();
  max_warp_insts_ = env_number("ACCELSIM_CUDA_MAX_WARP_INSTS", max_warp_insts_);
  if (max_warp_insts_ == 0) startup_error("ACCELSIM_CUDA_MAX_WARP_INSTS must be at least 1");
  try {
    cfg_ = config::from_text(read_file(config_path_), config_path_);
    arch_ = uint32_t(env_number("ACCELSIM_CUDA_ARCH", uint64_t(cfg_.sm_version)));
    tables_ = sim::PtxTables::load_dir(data_dir_, cfg_.opcode_units);
    tables_->isa_table(arch_);  // an unsupported arch fails now, not at the first launch
    session_ = std::make_shared<sim::GpuSession>(cfg_);
    session_->set_reset_after_cut(false);  // a cut run ends the program: its statistics are the result
  } catch (const std::exception& e) {
    startup_error(e.what());
  }
  mem_ = std::make_shared<ptx::DeviceMemory>();
  facts_ = sim::empty_result(sim::gpu_params(cfg_));
  install_signal_handlers();
  install_fault_handlers();
  std::atexit([] { Runtime::get().finish(); });
  startup_s_ = wall_seconds() - start_wall_s_;
}

// ---- errors ----

cudaError_t& Runtime::last_error() {
  thread_local cudaError_t e = cudaSuccess;
  return e;
}

cudaError_t Runtime::fail(cudaError_t e) {
  if (e != cudaSuccess) last_error() = e;
  return e;
}

void Runtime::fatal(const std::string& msg, int exit_code) {
  std::fflush(stdout);
  std::fprintf(stderr, "accelsim cuda: %s\n", msg.c_str());
  if (!finished_) {
    finished_ = true;
    const char* status = exit_code == 130   ? "interrupted"
                         : exit_code == 124 ? "max_cycles"
                         : exit_code == 2   ? "unimplemented"
                                            : "error";
    write_result(status, msg);
  }
  std::fflush(nullptr);
  std::_Exit(exit_code);
}

// ---- registration ----

Fatbin* Runtime::register_fatbin(const void* wrapper) {
  auto f = std::make_unique<Fatbin>();
  f->wrapper = wrapper;
  Dl_info info{};
  f->where = dladdr(wrapper, &info) && info.dli_fname && *info.dli_fname ? info.dli_fname : "the program";
  fatbins_.push_back(std::move(f));
  return fatbins_.back().get();
}

void Runtime::register_kernel(Fatbin* f, const void* host_fun, const char* name) {
  Kernel& k = kernels_[host_fun];
  k.fatbin = f;
  k.name = name;
}

void Runtime::register_variable(Fatbin* f, const void* host_var, const char* name, size_t size, bool constant,
                                void** managed_slot) {
  Variable& v = variables_[host_var];
  v.fatbin = f;
  v.name = name;
  v.size = size;
  v.constant = constant;
  v.managed = managed_slot != nullptr;
  v.managed_slot = managed_slot;
}

void Runtime::init_module(Fatbin* f) { load(*f); }

Kernel* Runtime::kernel(const void* host_fun) {
  auto it = kernels_.find(host_fun);
  return it == kernels_.end() ? nullptr : &it->second;
}

const ptx::Function& Runtime::function(Kernel& k) {
  load(*k.fatbin);
  const ptx::Function* fn = k.fatbin->module->find(k.name);
  if (!fn || !fn->entry)
    fatal("kernel '" + k.name + "' is registered by the program but is not an .entry of its PTX (" +
          k.fatbin->where + ")");
  return *fn;
}

uint64_t Runtime::variable_address(const void* host_var, size_t* size) {
  auto it = variables_.find(host_var);
  if (it == variables_.end()) return 0;
  Variable& v = it->second;
  load(*v.fatbin);
  for (size_t i = 0; i < v.fatbin->module->globals.size(); ++i)
    if (v.fatbin->module->globals[i].name == v.name) {
      if (size) *size = v.size;
      return v.fatbin->globals[i];
    }
  fatal("variable '" + v.name + "' is registered by the program but not in its PTX (" + v.fatbin->where + ")");
}

// The fat binary's PTX texts, best first: decoded here, or (a compressed
// entry without its library, or when forced for tests) by cuobjdump, keeping
// the texts that define every kernel and variable this fat binary registered.
std::vector<ptx::PtxText> Runtime::ptx_of(const Fatbin& f) {
  const uint8_t* data = ptx::fatbin_from_wrapper(f.wrapper, f.where);
  auto entries = ptx::parse_fatbin(data, ptx::fatbin_container_bytes(data), f.where);
  const bool forced = !env("ACCELSIM_CUDA_FORCE_CUOBJDUMP").empty();
  if (!forced) {
    try {
      return ptx::ptx_texts(entries, uint32_t(cfg_.sm_version), f.where);
    } catch (const Error&) {
      if (cuobjdump_.empty()) throw;
    }
  }
  if (cuobjdump_.empty()) throw Error("ACCELSIM_CUDA_FORCE_CUOBJDUMP without a cuobjdump (ACCELSIM_CUDA_CUOBJDUMP)");
  std::vector<std::string> names;
  for (const auto& [host, k] : kernels_)
    if (k.fatbin == &f) names.push_back(".entry " + k.name);
  for (const auto& [host, v] : variables_)
    if (v.fatbin == &f) names.push_back(v.name);
  std::vector<ptx::PtxText> mine;
  for (ptx::PtxText& t : cuobjdump_ptx(cuobjdump_, f.where == "the program" ? "/proc/self/exe" : f.where)) {
    bool all = true;
    for (const std::string& n : names) all = all && t.text.find(n) != std::string::npos;
    if (all) mine.push_back(std::move(t));
  }
  ptx::order_for_gpu(mine, uint32_t(cfg_.sm_version));
  return mine;
}

// The fat binary's PTX, parsed, and its variables placed in device memory
// (managed ones in host-mapped memory the program's pointer is set to).
void Runtime::load(Fatbin& f) {
  if (f.loaded) return;
  f.loaded = true;
  try {
    auto texts = ptx_of(f);
    if (texts.empty())
      fatal(f.where + ": its fat binary holds SASS but no PTX, which the simulator needs. Rebuild with PTX "
                      "embedded, e.g. nvcc -arch=sm_75 (SASS + PTX) or -gencode arch=compute_75,code=compute_75 "
                      "(docs/cuda_apps.md)");
    f.module = ptx::parse_module(texts[0].text, f.where + " [PTX compute_" + std::to_string(texts[0].arch) + "]",
                                 tables_->opcodes);
    if (!sass_dir_.empty()) f.sass = read_sass_guides(sass_dir_, texts[0].text);
  } catch (const std::exception& e) {
    fatal(e.what());
  }
  for (const ptx::Symbol& g : f.module->globals) {
    const Variable* managed = nullptr;
    for (const auto& [host, v] : variables_)
      if (v.fatbin == &f && v.managed && v.name == g.name) managed = &v;
    uint64_t addr;
    if (managed) {
      addr = reinterpret_cast<uint64_t>(malloc_mapped(g.size));
      *managed->managed_slot = reinterpret_cast<void*>(addr);
    } else {
      addr = mem_->allocate(g.size);
      note_device_end(addr + g.size);
    }
    if (g.size) mem_->fill(addr, 0, g.size);
    if (!g.init.empty()) mem_->write(addr, g.init.data(), g.init.size());
    f.globals.push_back(addr);
  }
}

// ---- memory ----

uint64_t Runtime::malloc_device(size_t bytes) {
  const uint64_t span = (std::max<uint64_t>(bytes, 1) + 255) / 256 * 256;  // cudaMalloc's alignment
  if (span > device_bytes() - std::min(live_bytes_, device_bytes())) return 0;
  try {
    const uint64_t p = mem_->allocate(bytes);
    note_device_end(p + span);
    live_[p] = span;
    live_bytes_ += span;
    return p;
  } catch (const Error&) {
    return 0;
  }
}

void* Runtime::malloc_mapped(size_t bytes) {
  size_t mapped = 0;
  void* p = host_.allocate(bytes, &mapped);
  if (!p) return nullptr;
  mem_->map_host(p, mapped);
  return p;
}

bool Runtime::free_device(uint64_t addr) {
  if (addr >= ptx::DeviceMemory::kHostWindow || !mem_->release(addr)) return false;
  if (auto it = live_.find(addr); it != live_.end()) {  // variables are released too, but were never counted
    live_bytes_ -= it->second;
    live_.erase(it);
  }
  return true;
}

bool Runtime::free_mapped(void* p) {
  if (!host_.base_of(p) || host_.base_of(p) != p) return false;
  mem_->release(reinterpret_cast<uint64_t>(p));
  return host_.release(p);
}

}  // namespace accelsim::cudart
