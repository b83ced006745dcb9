// Functional emulation of one thread block of a PTX kernel, producing the
// instruction records and per-lane addresses the timing model consumes.
// Registers live per warp as dense [register][lane] arrays; one warp
// instruction runs all its active lanes in one loop. Divergence uses a SIMT
// stack reconverging at immediate post-dominators.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/dim3.h"
#include "base/error.h"
#include "base/run_guard.h"
#include "isa/access_sink.h"
#include "isa/inst_record.h"
#include "isa/record_stream.h"
#include "ptx/device_memory.h"
#include "ptx/program.h"

namespace accelsim::ptx {

// Everything one kernel launch needs; read-only while its blocks run.
struct Launch {
  std::shared_ptr<const Program> prog;
  std::string kernel;
  Dim3 grid, block;
  uint32_t dyn_shared = 0;
  std::vector<uint8_t> params;            // the kernel parameter buffer
  std::vector<uint64_t> global_addr;      // device address of each module global
  std::shared_ptr<DeviceMemory> mem;
  uint64_t max_warp_insts = uint64_t(1) << 24;  // per warp: beyond it, a spin is reported
  uint32_t sm_count = 80;
  uint64_t shmem_base = 0, local_base = 0;      // generic-address windows (KernelInfo)
  int64_t static_shared = -1;  // ptxas's static shared bytes for occupancy; -1: the PTX's
  // Streamed timing runs: records produced per warp per refill (a warp asks
  // for more when fewer than a quarter of that are left); 0 = whole blocks
  // at launch.
  uint32_t chunk_records = 128;
};

// run() stopped because the run's guard asked it to (Ctrl-C): no fault.
class EmulationStopped : public Error {
 public:
  using Error::Error;
};

// Records of one block, grouped by warp as ThreadBlockTrace wants them.
struct BlockRecords {
  std::vector<isa::InstRecord> insts;
  std::vector<uint32_t> warp_begin;
  std::vector<uint64_t> addrs;
};

class CtaEmulator {
 public:
  static constexpr uint64_t kWindowBytes = uint64_t(1) << 24;  // shared / local windows

  explicit CtaEmulator(const Launch& launch);
  // Emulates block `index` (x fastest) to completion; throws PtxError on a
  // fault (out of bounds, spin on a block not yet run, ...).
  void run(uint64_t index, BlockRecords& out);

  // The same in steps (PTX mode's bounded chunks): start() resets the state
  // for block `index`; produce() runs warps until warp w has records up to
  // number target[w] (counted from the block's start), waits at a barrier
  // that other warps have not reached, or is done. A barrier is released
  // once every live warp waits at it, as in run(). Faults throw PtxError.
  void start(uint64_t index);
  void produce(const uint64_t* target);
  // Forgets warp w's records before number `keep` (and their addresses).
  void drop(uint32_t w, uint64_t keep);
  uint32_t num_warps() const { return nwarps_; }
  isa::WarpWindow window(uint32_t w) const;
  // Records produced so far (dropped or not) / buffered now.
  uint64_t produced(uint32_t w) const { return warps_[w].first + warps_[w].recs.size(); }
  uint64_t buffered(uint32_t w) const { return warps_[w].recs.size(); }
  // The run to poll while emulating; null: none. produce() then returns
  // early once the run is asked to stop (stopped() says so; run() throws
  // EmulationStopped), and a warp run on past its target toward a barrier
  // stops where the cycle budget could no longer time its records (and in
  // any case kRunAhead records past its target).
  void set_guard(RunGuard* guard) { guard_ = guard; }
  bool stopped() const { return stopped_; }
  // Runs block `index` to its end for its effects alone (device memory
  // written as in a timed run), keeping no records: the blocks intra-kernel
  // sampling never dispatches. Its memory records' lane addresses go to
  // `sink` when given. False when the run asked it to stop first (guard).
  bool run_effects(uint64_t index, isa::AccessSink* sink);
  static constexpr uint64_t kRunAhead = uint64_t(1) << 16;  // records past a target toward a barrier, per call

 private:
  struct Frame {
    int32_t pc, rpc;
    uint32_t mask;
    int32_t call = -1;  // a call's frame: the call instruction (its lanes return there)
    uint32_t spins = 0;  // backward branches taken by the whole frame (see yield_spin)
    bool parked = false;  // its lanes executed a barrier the rest of the warp has not reached
    int32_t callee = -1;  // a call's frame: the function it runs (Program::callees)
  };
  static constexpr uint32_t kBarriers = 16;
  struct AsyncCopy {  // one lane's cp.async (exec_async.cpp)
    uint64_t src;     // global address
    uint32_t dst;     // shared offset
    uint8_t size, src_size, lane;
  };
  // A divergent path that loops this often while other lanes wait at its
  // reconvergence point lets the waiting lanes run ahead (spin locks).
  static constexpr uint32_t kSpinYield = 64;
  struct Warp {
    std::vector<uint64_t> regs;   // [register][lane]
    std::vector<Frame> stack;
    uint32_t exited = 0;
    std::array<uint8_t, 32> carry{};  // CC.CF of add.cc / sub.cc / mad.cc per lane
    bool at_barrier = false, done = false;
    uint32_t lanes = 0;      // the warp's threads
    uint32_t bar_lanes = 0;  // lanes that executed the barrier the warp is arriving at
    uint32_t bar_id = 0, bar_count = 0;
    int32_t bar_pc = 0;
    uint64_t executed = 0;
    std::vector<isa::InstRecord> recs;
    std::vector<uint64_t> addrs;
    uint64_t first = 0, first_addr = 0;  // records / addresses dropped before recs[0] / addrs[0]
    std::vector<AsyncCopy> async;         // cp.async copies issued, not landed, in issue order
    std::vector<uint32_t> async_groups;   // committed groups: each one's end in `async`
    int32_t loop = -1;        // the unrolled loop (Program::loops) this warp is in, -1 none
    uint64_t loop_trips = 0;  // its iterations so far in this entry
    uint32_t loop_mask = 0;   // the lanes that entered it
  };
  const Launch& L;
  const Program& P;
  uint32_t nregs_, nwarps_, nthreads_;
  std::vector<Warp> warps_;
  std::vector<uint8_t> shared_, local_;
  std::array<uint32_t, kBarriers> bar_warps_{};  // warps arrived at each barrier
  std::array<uint32_t, kBarriers> bar_need_{};   // its thread count (0: every live warp)
  std::array<SubOp, kBarriers> bar_op_{};         // bar.red's operation (kSubNone: bar.sync)
  std::array<uint32_t, kBarriers> bar_true_{}, bar_threads_{};  // bar.red: true predicates / lanes so far
  uint32_t local_bytes_ = 0;
  size_t shared_size_ = 0;  // static + dynamic shared bytes of one block
  Dim3 cta_;
  uint64_t cta_index_ = 0;
  std::vector<uint64_t> sym_addr_;   // per Function::syms: address in its space
  std::array<uint64_t, 32> lane_addr_{};
  std::array<uint8_t, 32> lane_space_{};

  static constexpr uint32_t kPollEvery = 4096;  // warp instructions between guard polls
  RunGuard* guard_ = nullptr;
  uint32_t poll_countdown_ = kPollEvery;
  bool stopped_ = false;
  bool effects_only_ = false;          // run_effects: no records kept
  isa::AccessSink* sink_ = nullptr;    // ... its memory accesses go here (may be null)

  // one warp until it blocks (barrier), exits or has records up to `limit`
  void run_warp(uint32_t w, uint64_t limit);
  bool poll_stop();
  [[noreturn]] void report_spin(uint32_t w, int32_t pc, const Inst& in) const;
  std::string spin_reason(uint32_t w, int32_t pc) const;
  // Runs a non-control instruction through its opcode's executor (the
  // dispatch table built from ptx/opcodes.def, exec_dispatch.cpp).
  void exec(uint32_t w, const Inst& in, uint32_t mask, int32_t pc);
  using Executor = void (CtaEmulator::*)(uint32_t w, const Inst& in, uint32_t mask);
  static const Executor kExecutors[];
  void record(uint32_t w, int32_t pc, uint32_t mask, const Inst& in, uint8_t space);
  void sink_record(int32_t pc, uint32_t mask, uint8_t space);
  // SASS-guided loops ptxas unrolled (Program::loops, emulator_loops.cpp):
  // entries and iterations counted around record(), their control recorded
  // after every k-th iteration and on leaving
  void loop_before(uint32_t w, int32_t pc, uint32_t mask);
  void loop_after(uint32_t w, int32_t pc, uint32_t mask);
  void leave_loop(uint32_t w);
  void control_records(uint32_t w, uint32_t begin, uint32_t end, uint32_t mask);
  void call(uint32_t w, const Inst& in, uint32_t mask, int32_t pc);
  void enter(uint32_t w, const Inst& in, uint32_t lanes, int32_t pc, int32_t callee);
  int32_t pointer_callee(uint32_t w, uint32_t lane, const Inst& in, uint64_t address) const;
  bool ret(uint32_t w, const Inst& in, uint32_t mask);
  void yield_spin(uint32_t w);
  bool barrier(uint32_t w, const Inst& in, uint32_t mask, int32_t pc);
  bool release_barriers();
  void quiet_barrier_record(Warp& wp, uint32_t nrec);
  void reduce_at_barrier(uint32_t w, const Inst& in, uint32_t mask, uint32_t id);
  void reduced_result(Warp& wp, uint32_t id);
  void unpark(Warp& wp);
  void copy_param(uint32_t w, uint32_t lane, int32_t from, int32_t to);
  // operand access
  uint64_t& reg(Warp& wp, int32_t r, uint32_t lane) { return wp.regs[size_t(r) * 32 + lane]; }
  // An operand's value in one lane; a plain register, the common case, inline.
  uint64_t value(Warp& wp, uint32_t w, const Operand& o, uint32_t lane) {
    return o.kind == Operand::kReg && !o.neg ? reg(wp, o.reg, lane) : other_value(wp, w, o, lane);
  }
  uint64_t other_value(Warp& wp, uint32_t w, const Operand& o, uint32_t lane);  // immediates, specials, !p, ...
  uint64_t special(uint32_t w, const Operand& o, uint32_t lane) const;
  uint64_t address(Warp& wp, const Operand& o, uint32_t lane, const Inst& in, Space& space);
  // memory
  void* locate(uint32_t w, uint32_t lane, Space space, uint64_t addr, uint32_t n, const Inst& in, bool write);
  uint64_t load(uint32_t w, uint32_t lane, Space space, uint64_t addr, uint32_t n, const Inst& in);
  void store(uint32_t w, uint32_t lane, Space space, uint64_t addr, uint32_t n, uint64_t v, const Inst& in);
  uint64_t timing_address(uint32_t w, uint32_t lane, Space space, uint64_t addr, const Inst& in) const;
  static uint8_t record_space(Space space);
  // The executors (opcodes.def's executor column), one per opcode or tight
  // family; each runs one warp instruction over the lanes in `mask`. The
  // memory ones (record class Memory) write their own record.
  void mem_access(uint32_t w, const Inst& in, uint32_t mask);  // ld, ldu, st
  template <uint32_t N> void mem_lanes(uint32_t w, const Inst& in, uint32_t mask);
  template <uint32_t N> uint8_t* block_bytes(uint32_t w, uint32_t lane, Space space, uint64_t addr, bool write);
  template <uint32_t N> uint64_t load_n(uint32_t w, uint32_t lane, Space space, uint64_t addr, const Inst& in);
  template <uint32_t N>
  void store_n(uint32_t w, uint32_t lane, Space space, uint64_t addr, uint64_t v, const Inst& in);
  void atomic(uint32_t w, const Inst& in, uint32_t mask);      // atom, red (exec_atomic.cpp)
  void texture(uint32_t w, const Inst& in, uint32_t mask);     // tex, tld4 (exec_texture.cpp)
  void surface(uint32_t w, const Inst& in, uint32_t mask);     // suld, sust (exec_surface.cpp)
  void surface_data(uint32_t w, uint32_t lane, const Inst& in, uint64_t addr);
  uint64_t bound_handle(uint32_t w, uint32_t lane, const Operand& a, const Inst& in);  // a .texref's handle
  void move(uint32_t w, const Inst& in, uint32_t mask);        // mov (exec_move.cpp)
  void cvta(uint32_t w, const Inst& in, uint32_t mask);
  void convert(uint32_t w, const Inst& in, uint32_t mask);     // cvt (exec_convert.cpp)
  template <class Kind> void convert_lanes(uint32_t w, const Inst& in, uint32_t mask);
  void compare(uint32_t w, const Inst& in, uint32_t mask);     // setp (exec_compare.cpp)
  template <class Get> void compare_lanes(uint32_t w, const Inst& in, uint32_t mask);
  void shfl(uint32_t w, const Inst& in, uint32_t mask);        // exec_warp.cpp
  void vote(uint32_t w, const Inst& in, uint32_t mask);
  void activemask(uint32_t w, const Inst& in, uint32_t mask);
  void nothing(uint32_t w, const Inst& in, uint32_t mask);     // membar, fence, prefetch, nanosleep
  void trap(uint32_t w, const Inst& in, uint32_t mask);
  // cp.async and its groups (exec_async.cpp)
  void async_copy(uint32_t w, const Inst& in, uint32_t mask);
  void async_commit(uint32_t w, const Inst& in, uint32_t mask);
  void async_wait(uint32_t w, const Inst& in, uint32_t mask);  // wait_group, wait_all
  void land_async(uint32_t w, size_t groups, bool all);
  // tensor cores (exec_mma.cpp)
  void wmma_load(uint32_t w, const Inst& in, uint32_t mask);
  void wmma_store(uint32_t w, const Inst& in, uint32_t mask);
  void mma(uint32_t w, const Inst& in, uint32_t mask);  // wmma.mma, mma
  void ldmatrix(uint32_t w, const Inst& in, uint32_t mask);  // and stmatrix
  void stmatrix(uint32_t w, const Inst& in, uint32_t mask);
  void whole_warp(uint32_t w, const Inst& in, uint32_t mask) const;
  uint64_t frag_bits(Warp& wp, const Operand& v, uint32_t width, uint32_t lane, int i);
  void set_frag_bits(Warp& wp, const Operand& v, uint32_t width, uint32_t lane, int i, uint64_t bits);
  void control(uint32_t w, const Inst& in, uint32_t mask);     // bra, call, ret, exit, bar: run_warp's
  // arithmetic: the opcode's semantics struct Sem (ptx/ops_*.h) per lane,
  // for the instruction's type (ptx/exec_arith.h)
  static constexpr size_t kMaxSources = 4;
  template <class Sem> void arith(uint32_t w, const Inst& in, uint32_t mask);
  template <class Sem, class T> void int_lanes(uint32_t w, const Inst& in, uint32_t mask);
  template <class Sem, class F> void float_lanes(uint32_t w, const Inst& in, uint32_t mask);
  template <class Sem> void pred_lanes(uint32_t w, const Inst& in, uint32_t mask);
  void half_lanes(uint32_t w, const Inst& in, uint32_t mask);
  void sources(Warp& wp, uint32_t w, const Inst& in, uint32_t l, uint64_t* v);
  struct SourceRows;
  void source_rows(Warp& wp, const Inst& in, SourceRows& rows);
  void lane_sources(Warp& wp, uint32_t w, const Inst& in, const SourceRows& rows, uint32_t l, uint64_t* v);
  [[noreturn]] void fault(uint32_t w, uint32_t lane, const Inst& in, const std::string& what) const;
  std::string where(uint32_t w, uint32_t lane) const;
};

}  // namespace accelsim::ptx
