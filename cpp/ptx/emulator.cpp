// Block scheduling, control flow (SIMT stack), operands, records and memory.
#include "ptx/emulator.h"

#include <algorithm>
#include <cstring>

#include "base/hex.h"
#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {
uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

CtaEmulator::CtaEmulator(const Launch& launch) : L(launch), P(*launch.prog) {
  nregs_ = P.nregs;
  nthreads_ = uint32_t(L.block.count());
  nwarps_ = (nthreads_ + 31) / 32;
  warps_.resize(nwarps_);  // registers, shared and local memory are sized and zeroed by start(), once
  uint32_t dyn_off = align_up(P.shared_bytes, P.dyn_shared_align);
  shared_size_ = size_t(dyn_off) + L.dyn_shared;
  local_bytes_ = align_up(P.local_bytes, 8);
  for (const Symbol& s : P.syms) {
    uint64_t a = s.offset;
    if (s.global >= 0) a = L.global_addr.at(size_t(s.global));
    else if (s.dynamic_shared) a = dyn_off;
    sym_addr_.push_back(a);
  }
}

std::string CtaEmulator::where(uint32_t w, uint32_t lane) const {
  uint32_t t = w * 32 + lane;
  uint32_t tx = t % L.block.x, ty = (t / L.block.x) % L.block.y, tz = t / (L.block.x * L.block.y);
  return "kernel " + L.kernel + ", block (" + std::to_string(cta_.x) + "," + std::to_string(cta_.y) + "," +
         std::to_string(cta_.z) + "), thread (" + std::to_string(tx) + "," + std::to_string(ty) + "," +
         std::to_string(tz) + ")";
}

void CtaEmulator::fault(uint32_t w, uint32_t lane, const Inst& in, const std::string& what) const {
  throw PtxError(P.module->path, in.line, in.col, in.spelling, where(w, lane) + ": " + what);
}

void CtaEmulator::start(uint64_t index) {
  cta_index_ = index;
  cta_.x = uint32_t(index % L.grid.x);
  cta_.y = uint32_t((index / L.grid.x) % L.grid.y);
  cta_.z = uint32_t(index / (uint64_t(L.grid.x) * L.grid.y));
  shared_.assign(shared_size_, 0);
  local_.assign(size_t(local_bytes_) * nthreads_, 0);
  bar_warps_.fill(0);
  bar_need_.fill(0);
  bar_op_.fill(kSubNone);
  bar_true_.fill(0);
  bar_threads_.fill(0);
  for (uint32_t w = 0; w < nwarps_; ++w) {
    Warp& wp = warps_[w];
    wp.regs.assign(size_t(nregs_) * 32, 0);
    uint32_t lanes = std::min<uint32_t>(32, nthreads_ - w * 32);
    wp.stack.assign(1, Frame{0, -1, lanes == 32 ? ~0u : ((1u << lanes) - 1)});
    wp.exited = 0;
    wp.carry.fill(0);
    wp.at_barrier = wp.done = false;
    wp.lanes = wp.stack[0].mask;
    wp.bar_lanes = wp.bar_id = 0;
    wp.executed = 0;
    wp.recs.clear();
    wp.addrs.clear();
    wp.first = wp.first_addr = 0;
    wp.async.clear();
    wp.async_groups.clear();
  }
}

// Warps in index order, each until it has its records, blocks or is done;
// again while a barrier releases. Whole blocks (target null) run exactly as
// before chunking: warp 0 to the barrier, warp 1 to it, ... A warp that
// wants records but waits at a barrier has the others run on to that barrier
// past their targets (their extra records are bounded by the code between
// two barriers): a warp is never left without records because another one
// was not emulated far enough, so chunking cannot change the timing.
// The run on to a barrier goes at most kRunAhead records past a warp's
// target per call (a warp that never reaches the barrier would otherwise
// fill memory; the rest comes at its next refill, before the barrier can
// release in the timing model), and with a guard no further than the budget
// could time (cycles_left); everything stops once the run is asked to.
void CtaEmulator::produce(const uint64_t* target) {
  auto wants = [&](uint32_t w) { return !warps_[w].done && (!target || produced(w) < target[w]); };
  const uint64_t ahead = std::min(kRunAhead, guard_ ? guard_->cycles_left() : UINT64_MAX);
  for (;;) {
    if (stopped_) return;
    bool starving = false;
    for (uint32_t w = 0; w < nwarps_; ++w) starving |= warps_[w].at_barrier && wants(w);
    bool ran = false;
    for (uint32_t w = 0; w < nwarps_; ++w) {
      Warp& wp = warps_[w];
      uint64_t limit = target ? target[w] : UINT64_MAX;
      if (target && starving) limit = limit > UINT64_MAX - ahead ? UINT64_MAX : limit + ahead;
      if (!wp.done && !wp.at_barrier && produced(w) < limit) {
        run_warp(w, limit);
        ran = true;
      }
    }
    if (release_barriers()) continue;
    if (!ran) return;
  }
}

// Barriers whose warps all arrived release them: a thread count's worth of
// warps, or (no count) every warp not done (exited warps count as arrived).
// Every live warp waiting with none released can never go on: an error.
bool CtaEmulator::release_barriers() {
  uint32_t live = 0, waiting = 0;
  for (const Warp& wp : warps_) live += !wp.done, waiting += !wp.done && wp.at_barrier;
  bool released = false;
  for (uint32_t id = 0; id < kBarriers; ++id) {
    if (bar_warps_[id] == 0) continue;
    const uint32_t need = bar_need_[id] ? bar_need_[id] / 32 : live;
    if (bar_warps_[id] < need) continue;
    if (bar_warps_[id] > need && bar_op_[id] != kSubNone) {  // which warps' predicates count is unknown here
      auto waits_here = [&](const Warp& x) { return x.at_barrier && x.bar_id == id; };
      const Warp& wp = *std::find_if(warps_.begin(), warps_.end(), waits_here);
      fault(uint32_t(&wp - warps_.data()), uint32_t(__builtin_ctz(wp.lanes)), P.insts[size_t(wp.bar_pc)],
            "more warps (" + std::to_string(bar_warps_[id]) + ") wait at bar.red " + std::to_string(id) +
                " than its thread count takes (" + std::to_string(need) + " warps): not supported");
    }
    for (Warp& wp : warps_)
      if (wp.at_barrier && wp.bar_id == id) reduced_result(wp, id), wp.at_barrier = false, unpark(wp);
    bar_warps_[id] = 0;
    bar_need_[id] = 0;
    bar_true_[id] = bar_threads_[id] = 0;
    released = true;
  }
  if (!released && live > 0 && waiting == live) {
    for (uint32_t w = 0; w < nwarps_; ++w) {
      const Warp& wp = warps_[w];
      if (wp.done) continue;
      const Inst& in = P.insts[size_t(wp.bar_pc)];
      fault(w, uint32_t(__builtin_ctz(wp.lanes)), in,
            "every live warp waits at a barrier that cannot complete (barrier " + std::to_string(wp.bar_id) +
                " has " + std::to_string(bar_warps_[wp.bar_id]) + " warps of " +
                std::to_string(bar_need_[wp.bar_id] ? bar_need_[wp.bar_id] / 32 : live) + ")");
    }
  }
  return released;
}

void CtaEmulator::unpark(Warp& wp) {
  wp.bar_lanes = 0;
  for (Frame& f : wp.stack) f.parked = false;
}

// bar.sync / barrier.sync a{, b}, bar.arrive a, b and bar.red.op d, a{, b},
// c: lanes arrive; the warp arrives at barrier a once all its non-exited
// lanes have (lanes that diverged around the barrier arrive path by path:
// the first path's lanes park while the other path runs). True when the warp
// waits now. Only the record that completes the warp's arrival is a barrier
// for the timing model; a partial path's record and bar.arrive's (which does
// not wait) issue as no-ops there.
bool CtaEmulator::barrier(uint32_t w, const Inst& in, uint32_t mask, int32_t pc) {
  Warp& wp = warps_[w];
  const uint32_t lane = uint32_t(__builtin_ctz(mask));
  const bool red = in.op == Op::kBarRed;  // d, a{, b}, c: the id and count follow d
  const size_t first = red ? 1 : 0, nbar = in.ops.size() - first - (red ? 1 : 0);
  const uint64_t id = nbar == 0 ? 0 : value(wp, w, in.ops[first], lane);
  const uint64_t count = nbar > 1 ? value(wp, w, in.ops[first + 1], lane) : 0;
  if (id >= kBarriers) fault(w, lane, in, "barrier id " + std::to_string(id) + " is not 0..15");
  if (nbar > 1 && (count == 0 || count % 32 || count > uint64_t(nwarps_) * 32))
    fault(w, lane, in, "barrier thread count " + std::to_string(count) +
                           " is not a non-zero multiple of 32 up to the block's " + std::to_string(nwarps_ * 32));
  if (wp.bar_lanes && id != wp.bar_id)
    fault(w, lane, in, "lanes of one warp arrive at different barriers (" + std::to_string(wp.bar_id) + " and " +
                           std::to_string(id) + ")");
  if (bar_warps_[id] && bar_need_[id] != count)
    fault(w, lane, in, "barrier " + std::to_string(id) + " used with thread counts " +
                           std::to_string(bar_need_[id]) + " and " + std::to_string(count) + " at once");
  reduce_at_barrier(w, in, mask, uint32_t(id));
  wp.bar_id = uint32_t(id);
  wp.bar_count = uint32_t(count);
  wp.bar_pc = pc;
  const uint32_t nrec = P.tmpl_begin[size_t(pc) + 1] - P.tmpl_begin[size_t(pc)];
  const bool arrive_only = in.mods & kMArrive;
  if (!arrive_only) wp.bar_lanes |= mask;
  const uint32_t live = wp.lanes & ~wp.exited;
  if (!arrive_only && (wp.bar_lanes & live) != live) {  // part of the warp: the rest must get here
    quiet_barrier_record(wp, nrec);
    Frame& top = wp.stack.back();
    top.parked = true;
    const size_t k = wp.stack.size() - 1;
    if (k >= 2 && wp.stack[k - 1].rpc == top.rpc && !wp.stack[k - 1].parked)  // a sibling path runs first
      std::swap(wp.stack[k - 1], wp.stack[k]);
    return false;
  }
  bar_need_[id] = uint32_t(count);
  ++bar_warps_[id];
  if (arrive_only) {
    quiet_barrier_record(wp, nrec);
    return false;
  }
  wp.at_barrier = true;
  return true;
}

// The barrier record (BAR) among the instruction's last `nrec` records issues
// as a no-op: this arrival does not complete the warp's (or does not wait).
void CtaEmulator::quiet_barrier_record(Warp& wp, uint32_t nrec) {
  for (size_t k = wp.recs.size() - std::min<size_t>(nrec, wp.recs.size()); k < wp.recs.size(); ++k)
    if (wp.recs[k].unit == isa::kUnitBarrier) wp.recs[k].unit = isa::kUnitNop;
}

// bar.red: lanes add their predicate c to the barrier's tally; every lane
// that took part gets the block's result when it releases (reduced_result).
// All arrivals at one barrier instance must use one operation (the PTX ISA
// leaves a mix undefined; here it is an error).
void CtaEmulator::reduce_at_barrier(uint32_t w, const Inst& in, uint32_t mask, uint32_t id) {
  Warp& wp = warps_[w];
  const SubOp op = in.op == Op::kBarRed ? in.sub : kSubNone;
  if (bar_warps_[id] + bar_threads_[id] > 0 && bar_op_[id] != op)
    fault(w, uint32_t(__builtin_ctz(mask)), in,
          "barrier " + std::to_string(id) + " is used by bar.sync and bar.red, or two bar.red operations, at once");
  bar_op_[id] = op;
  if (op == kSubNone) return;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    bar_true_[id] += value(wp, w, in.ops.back(), l) != 0;
    ++bar_threads_[id];
  }
}

// Writes a released bar.red's result into the destination of the lanes of
// warp `wp` that executed it: .popc the count of true predicates (.u32),
// .and / .or the predicate.
void CtaEmulator::reduced_result(Warp& wp, uint32_t id) {
  const Inst& in = P.insts[size_t(wp.bar_pc)];
  if (in.op != Op::kBarRed) return;
  const uint32_t t = bar_true_[id], n = bar_threads_[id];
  const uint64_t v = in.sub == kRedPopc ? t : in.sub == kAtAnd ? uint64_t(t == n) : uint64_t(t > 0);
  for (uint32_t m = wp.bar_lanes & ~wp.exited; m; m &= m - 1) reg(wp, in.ops[0].reg, uint32_t(__builtin_ctz(m))) = v;
}

void CtaEmulator::drop(uint32_t w, uint64_t keep) {
  Warp& wp = warps_[w];
  if (keep <= wp.first) return;
  size_t n = size_t(std::min<uint64_t>(keep - wp.first, wp.recs.size()));
  // The remaining records' addresses follow the dropped ones'.
  size_t a = wp.addrs.size();
  for (size_t k = n; k < wp.recs.size(); ++k)
    if (wp.recs[k].flags & isa::kFlagHasAddrs) {
      a = wp.recs[k].addr_offset;
      break;
    }
  wp.recs.erase(wp.recs.begin(), wp.recs.begin() + ptrdiff_t(n));
  wp.addrs.erase(wp.addrs.begin(), wp.addrs.begin() + ptrdiff_t(a));
  for (isa::InstRecord& r : wp.recs)
    if (r.flags & isa::kFlagHasAddrs) r.addr_offset -= uint32_t(a);
  wp.first += n;
  wp.first_addr += a;
}

isa::WarpWindow CtaEmulator::window(uint32_t w) const {
  const Warp& wp = warps_[w];
  return isa::WarpWindow{wp.recs.data(), wp.addrs.data(), wp.first, wp.first_addr,
                         uint32_t(wp.recs.size()), !wp.done};
}

void CtaEmulator::run(uint64_t index, BlockRecords& out) {
  start(index);
  produce(nullptr);
  if (stopped_) throw EmulationStopped("emulation of kernel " + L.kernel + " stopped (interrupted)");
  out.insts.clear();
  out.addrs.clear();
  out.warp_begin.assign(1, 0);
  for (Warp& wp : warps_) {
    uint32_t base = uint32_t(out.addrs.size());
    size_t first = out.insts.size();
    out.insts.insert(out.insts.end(), wp.recs.begin(), wp.recs.end());
    for (size_t k = first; k < out.insts.size(); ++k)
      if (out.insts[k].flags & isa::kFlagHasAddrs) out.insts[k].addr_offset += base;
    out.addrs.insert(out.addrs.end(), wp.addrs.begin(), wp.addrs.end());
    out.warp_begin.push_back(uint32_t(out.insts.size()));
  }
}

bool CtaEmulator::run_effects(uint64_t index, isa::AccessSink* sink) {
  effects_only_ = true;
  sink_ = sink;
  start(index);
  produce(nullptr);
  effects_only_ = false;
  sink_ = nullptr;
  return !stopped_;
}

// run_effects with a sink: the memory record of the instruction at pc, as
// record() would keep it, handed over with its lane addresses.
void CtaEmulator::sink_record(int32_t pc, uint32_t mask, uint8_t space) {
  const int16_t mem = P.mem_tmpl[size_t(pc)];
  if (mem < 0 || mask == 0) return;
  isa::InstRecord r = P.tmpl[P.tmpl_begin[size_t(pc)] + uint32_t(mem)];
  if (r.flags & isa::kFlagPredOff) return;
  if (space) r.mem_space = space;
  r.active_mask = mask;
  r.flags |= isa::kFlagHasAddrs;
  r.addr_offset = 0;
  std::array<uint64_t, 32> lanes = lane_addr_;
  for (uint32_t off = ~mask; off; off &= off - 1) lanes[__builtin_ctz(off)] = 0;
  sink_->access(r, lanes.data());
}

namespace {

// The lanes of `active` whose guard predicate (one value per lane at p) holds.
inline uint32_t guarded_lanes(const uint64_t* p, bool negated, uint32_t active) {
  uint32_t mask = 0;
  for (uint32_t m = active; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    if ((p[l] != 0) != negated) mask |= 1u << l;
  }
  return mask;
}

}  // namespace

void CtaEmulator::run_warp(uint32_t w, uint64_t limit) {
  Warp& wp = warps_[w];
  const int32_t n = int32_t(P.insts.size());
  while (!wp.stack.empty()) {
    if (wp.first + wp.recs.size() >= limit || stopped_) return;
    Frame& f = wp.stack.back();
    f.mask &= ~wp.exited;
    if (f.mask == 0 || f.pc == f.rpc) {
      wp.stack.pop_back();
      continue;
    }
    if (f.parked) {  // no other path of the warp reaches the barrier: it arrives with these lanes
      wp.bar_lanes = wp.lanes & ~wp.exited;
      bar_need_[wp.bar_id] = wp.bar_count;
      ++bar_warps_[wp.bar_id];
      wp.at_barrier = true;
      return;
    }
    if (f.pc >= n) {  // ran off the end of the body: the lanes are done
      wp.exited |= f.mask;
      continue;
    }
    const int32_t pc = f.pc;
    const Inst& in = P.insts[size_t(pc)];
    if (++wp.executed > L.max_warp_insts) report_spin(w, pc, in);
    if (guard_ && --poll_countdown_ == 0 && poll_stop()) return;
    const uint32_t active = f.mask;
    const uint32_t mask = in.pred < 0 ? active : guarded_lanes(&wp.regs[size_t(in.pred) * 32], in.pred_neg, active);
    switch (in.op) {
      case Op::kBra: {
        record(w, pc, mask, in, 0);
        int32_t target = int32_t(in.ops[0].imm);
        if (mask == active) {
          f.pc = target;
          if ((in.mods & kMSpin) && f.rpc >= 0 && ++f.spins >= kSpinYield) yield_spin(w);
        } else if (mask == 0) {
          f.pc = pc + 1;
        } else {
          int32_t r = P.ipdom[size_t(pc)];
          f.pc = r;
          wp.stack.push_back(Frame{pc + 1, r, active & ~mask});
          wp.stack.push_back(Frame{target, r, mask});
        }
        continue;
      }
      case Op::kCall:
        record(w, pc, mask, in, 0);
        call(w, in, mask, pc);
        continue;
      case Op::kRet:
        record(w, pc, mask, in, 0);
        f.pc = pc + 1;
        if (!ret(w, in, mask)) wp.exited |= mask;  // ret of the kernel itself
        continue;
      case Op::kExit:
        record(w, pc, mask, in, 0);
        wp.exited |= mask;
        f.pc = pc + 1;
        continue;
      case Op::kBar:
      case Op::kBarRed:
        record(w, pc, mask, in, 0);
        f.pc = pc + 1;
        if (mask && barrier(w, in, mask, pc)) return;
        continue;
      default:
        f.pc = pc + 1;  // before exec: exec may grow the stack (it does not today)
        exec(w, in, mask, pc);
    }
  }
  land_async(w, 0, true);  // copies never waited for land when the warp finishes
  if (wp.loop >= 0) leave_loop(w);
  wp.done = true;
}

void CtaEmulator::record(uint32_t w, int32_t pc, uint32_t mask, const Inst& in, uint8_t space) {
  if (effects_only_) {  // a sampled kernel's functional tail: no records
    if (sink_) sink_record(pc, mask, space);
    return;
  }
  if (!P.loops.empty()) loop_before(w, pc, mask);
  Warp& wp = warps_[w];
  uint32_t b = P.tmpl_begin[size_t(pc)], e = P.tmpl_begin[size_t(pc) + 1];
  int16_t mem = P.mem_tmpl[size_t(pc)];
  for (uint32_t k = b; k < e; ++k) {
    isa::InstRecord r = P.tmpl[k];
    r.pc = k * 16;
    r.active_mask = (r.flags & isa::kFlagPredOff) ? 0 : mask;  // preset: SASS no lane runs
    r.line = in.line;
    r.warp = uint8_t(w);
    if (mask == 0) r.flags |= isa::kFlagPredOff;
    if (int(k - b) == mem && mask) {
      if (space) r.mem_space = space;
      r.flags |= isa::kFlagHasAddrs;
      r.addr_offset = uint32_t(wp.addrs.size());
      wp.addrs.insert(wp.addrs.end(), lane_addr_.begin(), lane_addr_.end());
      uint64_t* lanes = wp.addrs.data() + r.addr_offset;
      for (uint32_t off = ~mask; off; off &= off - 1) lanes[__builtin_ctz(off)] = 0;  // inactive lanes: 0
    }
    wp.recs.push_back(r);
  }
  if (!P.loops.empty()) loop_after(w, pc, mask);
}

// Independent-thread-scheduling rule for spin locks: the top frame keeps
// looping while lanes that left it wait at its reconvergence point r (e.g.
// the lane holding a lock the others spin on). Those waiting lanes are moved
// into a new frame that runs past r to the reconvergence point of the
// outermost frame waiting at r; the spinning lanes resume afterwards.
void CtaEmulator::yield_spin(uint32_t w) {
  Warp& wp = warps_[w];
  auto& st = wp.stack;
  st.back().spins = 0;
  const int32_t r = st.back().rpc;
  const uint32_t spinning = st.back().mask;
  size_t b = st.size() - 1;
  while (b > 0 && st[b - 1].pc == r && st[b - 1].call < 0) --b;
  if (b == st.size() - 1) return;
  uint32_t arrived = st[b].mask & ~wp.exited & ~spinning;
  if (!arrived) return;
  for (size_t k = b; k + 1 < st.size(); ++k) st[k].mask &= ~arrived;
  int32_t outer_rpc = st[b].rpc;
  st.push_back(Frame{r, outer_rpc, arrived});
}

// Per-thread copy of one .param slot to another (call arguments, returns).
void CtaEmulator::copy_param(uint32_t w, uint32_t lane, int32_t from, int32_t to) {
  const Symbol& a = P.syms[size_t(from)];
  const Symbol& b = P.syms[size_t(to)];
  uint8_t* base = &local_[size_t(w * 32 + lane) * local_bytes_];
  std::memmove(base + b.offset, base + a.offset, std::min(a.size, b.size));
}

// The calling lanes copy their arguments and enter the callee; the caller's
// frame waits at the next instruction until every one of them returned.
void CtaEmulator::call(uint32_t w, const Inst& in, uint32_t mask, int32_t pc) {
  Warp& wp = warps_[w];
  wp.stack.back().pc = pc + 1;
  if (!mask) return;
  if (wp.stack.size() > 4096) fault(w, uint32_t(__builtin_ctz(mask)), in, "call stack deeper than 4096 frames");
  if (in.ops[0].kind != Operand::kReg) return enter(w, in, mask, pc, in.ops[0].sym);
  // through a function pointer: one frame per distinct target; the frames
  // run one after another and the caller resumes once every one returned
  for (uint32_t left = mask; left;) {
    const uint32_t l = uint32_t(__builtin_ctz(left));
    const uint64_t target = reg(wp, in.ops[0].reg, l);
    uint32_t same = 0;
    for (uint32_t m = left; m; m &= m - 1)
      if (reg(wp, in.ops[0].reg, uint32_t(__builtin_ctz(m))) == target) same |= m & -m;
    left &= ~same;
    enter(w, in, same, pc, pointer_callee(w, l, in, target));
  }
}

// The function a pointer value names (Module::address_taken), or a fault.
int32_t CtaEmulator::pointer_callee(uint32_t w, uint32_t lane, const Inst& in, uint64_t address) const {
  const uint64_t k = (address - kFuncAddrBase) / 16;
  if (address < kFuncAddrBase || (address - kFuncAddrBase) % 16 || k >= P.address_callee.size() ||
      P.address_callee[k] < 0)
    fault(w, lane, in, "calls through " + std::to_string(address) + ", which is not the address of a .func");
  return P.address_callee[k];
}

// Lanes `lanes` enter callee `callee` from call site `in`: arguments copied,
// a frame pushed. A function already running in this warp is a recursion
// (each function has one register range), refused.
void CtaEmulator::enter(uint32_t w, const Inst& in, uint32_t lanes, int32_t pc, int32_t callee) {
  Warp& wp = warps_[w];
  const Program::Callee& c = P.callees[size_t(callee)];
  const uint32_t l0 = uint32_t(__builtin_ctz(lanes));
  if (in.ops[0].kind == Operand::kReg) {
    if (in.call_args.size() != c.params.size() || in.call_rets.size() > c.rets.size())
      fault(w, l0, in, "calls a function whose parameters do not match the call's");
    for (const Frame& f : wp.stack)
      if (f.callee == callee)
        fault(w, l0, in, "a recursive call through a function pointer (not supported by the PTX emulator yet)");
  }
  for (uint32_t m = lanes; m; m &= m - 1)
    for (size_t k = 0; k < c.params.size(); ++k) copy_param(w, uint32_t(__builtin_ctz(m)), in.call_args[k], c.params[k]);
  Frame f{c.entry, -1, lanes, pc};
  f.callee = callee;
  wp.stack.push_back(f);
}

// Lanes leaving a callee: copy the return values to the call site and drop
// the lanes from every frame down to the call's. False at kernel level.
bool CtaEmulator::ret(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  size_t k = wp.stack.size();
  while (k > 0 && wp.stack[k - 1].call < 0) --k;
  if (k == 0) return false;
  const Inst& site = P.insts[size_t(wp.stack[k - 1].call)];
  const Program::Callee& c = P.callees[size_t(wp.stack[k - 1].callee)];
  for (uint32_t m = mask; m; m &= m - 1)
    for (size_t r = 0; r < site.call_rets.size(); ++r) copy_param(w, uint32_t(__builtin_ctz(m)), c.rets[r], site.call_rets[r]);
  for (size_t j = k - 1; j < wp.stack.size(); ++j) wp.stack[j].mask &= ~mask;
  (void)in;
  return true;
}

uint64_t CtaEmulator::special(uint32_t w, const Operand& o, uint32_t lane) const {
  uint32_t t = w * 32 + lane;
  const uint32_t tid[3] = {t % L.block.x, (t / L.block.x) % L.block.y, t / (L.block.x * L.block.y)};
  const uint32_t ntid[3] = {L.block.x, L.block.y, L.block.z};
  const uint32_t ctaid[3] = {cta_.x, cta_.y, cta_.z};
  const uint32_t nctaid[3] = {L.grid.x, L.grid.y, L.grid.z};
  switch (Special(o.special)) {
    case kSpTid: return tid[o.comp];
    case kSpNtid: return ntid[o.comp];
    case kSpCtaid: return ctaid[o.comp];
    case kSpNctaid: return nctaid[o.comp];
    case kSpLaneid: return lane;
    case kSpWarpid: return w;
    case kSpNwarpid: return nwarps_;
    case kSpSmid: return cta_index_ % L.sm_count;  // the emulator runs ahead of dispatch
    case kSpNsmid: return L.sm_count;
    case kSpClock:
    case kSpClock64: return warps_[w].executed;  // deterministic: instructions so far
    case kSpLanemaskEq: return 1u << lane;
    case kSpLanemaskLt: return (1u << lane) - 1;
    case kSpLanemaskLe: return lane == 31 ? ~0u : (2u << lane) - 1;
    case kSpLanemaskGt: return lane == 31 ? 0u : ~((2u << lane) - 1);
    case kSpLanemaskGe: return ~((1u << lane) - 1);
    default: return 0;
  }
}

uint64_t CtaEmulator::other_value(Warp& wp, uint32_t w, const Operand& o, uint32_t lane) {
  switch (o.kind) {
    case Operand::kReg: return uint64_t(reg(wp, o.reg, lane) == 0);  // !p
    case Operand::kImm: return uint64_t(o.imm);
    case Operand::kSpecial: return special(w, o, lane);
    case Operand::kSym: return sym_addr_[size_t(o.sym)];
    default: return 0;
  }
}

// Address of a memory operand and the state space it falls in (generic
// addresses are resolved by window).
uint64_t CtaEmulator::address(Warp& wp, const Operand& o, uint32_t lane, const Inst& in, Space& space) {
  uint64_t a = uint64_t(o.imm);
  if (o.reg >= 0) a += reg(wp, o.reg, lane);
  if (o.sym >= 0) a += sym_addr_[size_t(o.sym)];
  space = in.space;
  if (o.sym >= 0 && P.syms[size_t(o.sym)].scratch) {  // call argument / return slot
    space = kSpLocal;
    return a;
  }
  if (space == kSpNone || space == kSpGeneric) {
    if (o.sym >= 0 && o.reg < 0) {
      space = P.syms[size_t(o.sym)].space;
    } else if (a - L.shmem_base < kWindowBytes) {
      space = kSpShared, a -= L.shmem_base;
    } else if (a - L.local_base < kWindowBytes) {
      space = kSpLocal, a -= L.local_base;
    } else {
      space = kSpGlobal;
    }
  } else if (space == kSpShared || space == kSpLocal) {
    // 32-bit address spaces: base + offset wraps at 2^32, as nvcc's offsets
    // from a 32-bit register expect ([%r4+68] with %r4 = base - 64)
    a = uint32_t(a);
  }
  return a;
}

void* CtaEmulator::locate(uint32_t w, uint32_t lane, Space space, uint64_t a, uint32_t n, const Inst& in,
                          bool write) {
  auto oob = [&](const char* what, uint64_t limit) {
    fault(w, lane, in,
          std::string(write ? "write" : "read") + " of " + std::to_string(n) + " bytes at " + what + " address " +
              hex(a) + " is out of bounds" + (limit ? " (size " + std::to_string(limit) + ")" : ""));
  };
  if (a % n) fault(w, lane, in, "misaligned " + std::to_string(n) + "-byte access at address " + hex(a));
  switch (space) {
    case kSpShared:
      if (a + n > shared_.size()) oob("shared", shared_.size());
      return &shared_[a];
    case kSpLocal: {
      if (a + n > local_bytes_) oob("local", local_bytes_);
      return &local_[size_t(w * 32 + lane) * local_bytes_ + a];
    }
    case kSpParam:
      if (write) fault(w, lane, in, "kernel parameters are read-only");
      if (a + n > L.params.size()) oob("parameter", L.params.size());
      return const_cast<uint8_t*>(&L.params[a]);
    default:
      if (!L.mem->valid(a, n)) oob(space == kSpConst ? "constant" : "global", 0);
      return nullptr;  // device memory: through DeviceMemory
  }
}

uint64_t CtaEmulator::load(uint32_t w, uint32_t lane, Space space, uint64_t a, uint32_t n, const Inst& in) {
  uint64_t v = 0;
  void* p = locate(w, lane, space, a, n, in, false);
  if (p) std::memcpy(&v, p, n);
  else L.mem->load(a, &v, n);
  return v;
}

void CtaEmulator::store(uint32_t w, uint32_t lane, Space space, uint64_t a, uint32_t n, uint64_t v,
                        const Inst& in) {
  void* p = locate(w, lane, space, a, n, in, true);
  if (p) std::memcpy(p, &v, n);
  else L.mem->store(a, &v, n);
}

namespace {
uint64_t sign_extend(uint64_t v, int bytes) {
  if (bytes >= 8) return v;
  int sh = 64 - 8 * bytes;
  return uint64_t(int64_t(v << sh) >> sh);
}
}  // namespace

// The address the timing model sees for lane l's access at `a` in space sp:
// local memory per thread and generic shared accesses in their windows.
uint64_t CtaEmulator::timing_address(uint32_t w, uint32_t l, Space sp, uint64_t a, const Inst& in) const {
  if (sp == kSpLocal) return L.local_base + uint64_t(w * 32 + l) * local_bytes_ + a;
  if (sp == kSpShared && (in.space == kSpNone || in.space == kSpGeneric)) return L.shmem_base + a;
  return a;
}

uint8_t CtaEmulator::record_space(Space sp) {
  return sp == kSpShared ? isa::kMemShared : sp == kSpLocal ? isa::kMemLocal
         : sp == kSpConst || sp == kSpParam ? isa::kMemConst : isa::kMemGlobal;
}

// The bytes of an aligned, in-bounds N-byte access to the block's shared or
// local memory or (reading) the parameters; null for anything else.
template <uint32_t N>
uint8_t* CtaEmulator::block_bytes(uint32_t w, uint32_t lane, Space space, uint64_t a, bool write) {
  if (a % N) return nullptr;
  switch (space) {
    case kSpShared: return a + N > shared_.size() ? nullptr : &shared_[a];
    case kSpLocal: return a + N > local_bytes_ ? nullptr : &local_[size_t(w * 32 + lane) * local_bytes_ + a];
    case kSpParam: return write || a + N > L.params.size() ? nullptr : const_cast<uint8_t*>(&L.params[a]);
    default: return nullptr;
  }
}

template <uint32_t N>
uint64_t CtaEmulator::load_n(uint32_t w, uint32_t lane, Space space, uint64_t a, const Inst& in) {
  uint64_t v = 0;
  if (const uint8_t* p = block_bytes<N>(w, lane, space, a, false)) std::memcpy(&v, p, N);
  else v = load(w, lane, space, a, N, in);
  return v;
}

template <uint32_t N>
void CtaEmulator::store_n(uint32_t w, uint32_t lane, Space space, uint64_t a, uint64_t v, const Inst& in) {
  if (uint8_t* p = block_bytes<N>(w, lane, space, a, true)) std::memcpy(p, &v, N);
  else store(w, lane, space, a, N, v, in);
}

template <uint32_t N>
void CtaEmulator::mem_lanes(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool is_load = in.op != Op::kSt, sext = ty_signed(in.type);
  const Operand& data = is_load ? in.ops[0] : in.ops[1];
  const Operand& addr = is_load ? in.ops[1] : in.ops[0];
  const bool plain = addr.sym < 0 && (in.space == kSpShared || in.space == kSpLocal);  // as address() has it
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp = in.space;
    const uint64_t a = plain ? uint32_t(uint64_t(addr.imm) + (addr.reg >= 0 ? reg(wp, addr.reg, l) : 0))
                             : address(wp, addr, l, in, sp);
    for (uint32_t e = 0; e < in.vec; ++e) {
      const int32_t r = data.kind == Operand::kVec ? data.vec[e] : data.reg;
      if (is_load) {
        const uint64_t v = load_n<N>(w, l, sp, a + e * N, in);
        if (r >= 0) reg(wp, r, l) = sext ? sign_extend(v, int(N)) : v;
      } else {
        store_n<N>(w, l, sp, a + e * N, data.kind == Operand::kImm ? uint64_t(data.imm) : r >= 0 ? reg(wp, r, l) : 0,
                   in);
      }
    }
    lane_addr_[l] = timing_address(w, l, sp, a, in);
    if (!rec_space) rec_space = record_space(sp);
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, rec_space);
}

// ld / ldu / st with the access size fixed per instantiation (single-move
// copies, alignment a mask); explicit .shared / .local addresses without a
// variable are computed inline, and aligned in-bounds block memory is read
// and written directly (anything else goes through load / store, which
// report what is wrong).
void CtaEmulator::mem_access(uint32_t w, const Inst& in, uint32_t mask) {
  switch (ty_bytes(in.type)) {
    case 2: return mem_lanes<2>(w, in, mask);
    case 4: return mem_lanes<4>(w, in, mask);
    case 8: return mem_lanes<8>(w, in, mask);
    default: return mem_lanes<1>(w, in, mask);
  }
}

}  // namespace accelsim::ptx
