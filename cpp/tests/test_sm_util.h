// Helpers for the SM / LD/ST / simulator behaviour tests: build thread blocks
// instruction by instruction and run them on a small GPU.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "sim/gpu.h"
#include "sim/kernel_source.h"
#include "isa/inst_record.h"

namespace accelsim::testing {

using isa::InstRecord;

inline uint16_t R(int n) { return uint16_t(n + 1); }

inline InstRecord alu(uint8_t unit, int dst, std::initializer_list<int> srcs, uint32_t mask = ~0u) {
  InstRecord in{};
  in.unit = unit;
  in.active_mask = mask;
  in.dst = dst < 0 ? isa::kNoReg : R(dst);
  int i = 0;
  for (int s : srcs) in.src[i++] = R(s);
  in.nsrc = uint8_t(i);
  if (mask == 0) in.flags |= isa::kFlagPredOff;
  return in;
}
inline InstRecord ffma(int dst, std::initializer_list<int> srcs) { return alu(isa::kUnitSp, dst, srcs); }
inline InstRecord iadd(int dst, std::initializer_list<int> srcs, uint32_t mask = ~0u) {
  return alu(isa::kUnitInt, dst, srcs, mask);
}
inline InstRecord exit_inst(uint32_t mask = ~0u) { return alu(isa::kUnitExit, -1, {}, mask); }
inline InstRecord bar() { return alu(isa::kUnitBarrier, -1, {}); }

// One thread block under construction.
struct BlockBuilder {
  std::vector<std::vector<InstRecord>> warps;
  std::vector<std::vector<std::vector<uint64_t>>> addrs;  // per warp, per inst (mem only)

  explicit BlockBuilder(int nwarps) : warps(nwarps), addrs(nwarps) {}
  BlockBuilder& add(int w, InstRecord in) {
    in.pc = uint32_t(warps[w].size() * 16);
    in.warp = uint8_t(w);
    warps[w].push_back(in);
    addrs[w].emplace_back();
    return *this;
  }
  // A memory instruction; lane i reads/writes lane_addr(i).
  template <class F>
  BlockBuilder& mem(int w, int dst, int addr_reg, uint8_t space, uint8_t flags, uint8_t bytes, F lane_addr,
                    uint32_t mask = ~0u) {
    InstRecord in = alu(isa::kUnitMem, dst, {addr_reg}, mask);
    in.mem_space = space;
    in.flags |= uint8_t(flags | isa::kFlagHasAddrs);
    in.access_bytes = bytes;
    add(w, in);
    std::vector<uint64_t> a(32, 0);
    for (int i = 0; i < 32; ++i)
      if (mask & (1u << i)) a[i] = lane_addr(i);
    addrs[w].back() = a;
    return *this;
  }
  trace::ThreadBlockTrace build() const {
    trace::ThreadBlockTrace tb;
    for (size_t w = 0; w < warps.size(); ++w) {
      tb.warp_begin.push_back(uint32_t(tb.insts.size()));
      for (size_t i = 0; i < warps[w].size(); ++i) {
        InstRecord in = warps[w][i];
        if (!addrs[w][i].empty()) {
          in.addr_offset = uint32_t(tb.addrs.size());
          tb.addrs.insert(tb.addrs.end(), addrs[w][i].begin(), addrs[w][i].end());
        }
        tb.insts.push_back(in);
      }
    }
    tb.warp_begin.push_back(uint32_t(tb.insts.size()));
    return tb;
  }
};

inline trace::KernelInfo kernel_info(uint32_t ctas, uint32_t threads, uint32_t nregs = 16,
                                     uint32_t shmem = 0) {
  trace::KernelInfo k;
  k.name = "test_kernel";
  k.grid.x = ctas;
  k.block.x = threads;
  k.nregs = nregs;
  k.shmem_bytes = shmem;
  return k;
}

inline std::unique_ptr<sim::MemoryKernelSource> kernel(const trace::KernelInfo& info,
                                                       std::vector<trace::ThreadBlockTrace> blocks) {
  return std::make_unique<sim::MemoryKernelSource>(info, std::move(blocks));
}

// A small, quiet GPU: no launch latency, predictable units.
inline config::GpuConfig small_config(int sms = 1) {
  config::GpuConfig cfg;
  cfg.sm_count = sms;
  cfg.kernel_launch_latency = 0;
  cfg.exec_units = {{"sp", 4, 4, 2, 32, {"sp", "alu"}}, {"int", 4, 2, 1, 32, {"int"}}};
  return cfg;
}

// Issue cycle of the n-th issued instruction of warp slot w.
inline uint64_t issue_cycle(const std::vector<sm::Sm::IssueEvent>& log, uint16_t w, uint32_t pc) {
  for (const auto& e : log)
    if (e.warp == w && e.pc == pc) return e.cycle;
  return UINT64_MAX;
}

// One warp: a load, then a use of its register (waits on the memory below).
inline std::unique_ptr<sim::MemoryKernelSource> load_then_use() {
  BlockBuilder b(1);
  b.mem(0, 1, 10, isa::kMemGlobal, isa::kFlagLoad, 4, [](int l) { return uint64_t(l) * 4; });
  b.add(0, iadd(2, {1})).add(0, exit_inst());
  return kernel(kernel_info(1, 32), {b.build()});
}

// Runs the kernel on the GPU; the DeadlockError's message ("" if none).
inline std::string deadlock_message(sim::Gpu& gpu, sim::KernelSource& src) {
  stats::KernelRecord rec;
  try {
    gpu.run_kernel(src, rec);
  } catch (const DeadlockError& e) {
    return e.what();
  }
  return "";
}

}  // namespace accelsim::testing
