// cp.async and its groups: copies from global to shared memory that land
// later. A copy is checked (bounds, alignment, src-size) when it issues and
// lands when a wait covers its group: cp.async.wait_group N lands all but the
// N most recent committed groups, cp.async.wait_all every copy, committed or
// not; a warp's copies still pending when it finishes land then (the kernel
// waits for them). Landing at the wait is the latest the PTX memory model
// allows, so a program that reads the destination before waiting sees the
// old bytes, as it may on a GPU. Groups are kept per warp: a copy joins the
// first group any lane of its warp commits after it, never a later one than
// its own thread's, so it never lands after its thread's wait. The source is
// read when the copy lands. The timing model gets LDGSTS / LDGDEPBAR / DEPBAR
// records (configs/ptx/lowering.txt) and times the wait itself: its "depbar"
// class holds the warp until its outstanding copies are acknowledged.
#include <cstring>

#include "ptx/emulator.h"

namespace accelsim::ptx {

// cp.async{.ca,.cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}:
// the parser made cp-size an immediate 4, 8 or 16 and set kMIgnoreSrc for
// the predicate form.
void CtaEmulator::async_copy(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const uint32_t size = uint32_t(in.ops[2].imm);
  auto raw = [&](const Operand& o, uint32_t l) {
    uint64_t a = uint64_t(o.imm);
    if (o.reg >= 0) a += reg(wp, o.reg, l);
    if (o.sym >= 0) a += sym_addr_[size_t(o.sym)];
    return a;
  };
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = uint32_t(__builtin_ctz(m));
    const uint64_t dst = raw(in.ops[0], l), src = raw(in.ops[1], l);
    uint64_t src_size = size;
    if (in.ops.size() > 3) {
      const uint64_t v = value(wp, w, in.ops[3], l);
      src_size = (in.mods & kMIgnoreSrc) ? (v ? 0 : size) : v;
    }
    if (src_size > size)
      fault(w, l, in,
            "src-size " + std::to_string(src_size) + " is larger than the copy's " + std::to_string(size) + " bytes");
    locate(w, l, kSpShared, dst, size, in, true);  // faults out of bounds or misaligned
    if (src % size) locate(w, l, kSpGlobal, src, size, in, false);  // names the misaligned source
    if (src_size && !L.mem->valid(src, src_size)) locate(w, l, kSpGlobal, src, size, in, false);
    wp.async.push_back(AsyncCopy{src, uint32_t(dst), uint8_t(size), uint8_t(src_size), uint8_t(l)});
    lane_addr_[l] = src;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, isa::kMemGlobal);
}

// cp.async.commit_group: the copies issued so far and not yet in a group
// form the next group (possibly empty: an empty group still counts for
// wait_group).
void CtaEmulator::async_commit(uint32_t w, const Inst&, uint32_t mask) {
  if (mask) warps_[w].async_groups.push_back(uint32_t(warps_[w].async.size()));
}

// cp.async.wait_group N / cp.async.wait_all.
void CtaEmulator::async_wait(uint32_t w, const Inst& in, uint32_t mask) {
  if (!mask) return;
  Warp& wp = warps_[w];
  if (in.op == Op::kCpAsyncWaitAll) return land_async(w, wp.async_groups.size(), true);
  const uint64_t keep = value(wp, w, in.ops[0], uint32_t(__builtin_ctz(mask)));
  if (wp.async_groups.size() > keep) land_async(w, wp.async_groups.size() - size_t(keep), false);
}

// Lands the copies of the oldest `groups` committed groups (and, with
// `all`, every uncommitted copy too).
void CtaEmulator::land_async(uint32_t w, size_t groups, bool all) {
  Warp& wp = warps_[w];
  const size_t end = all ? wp.async.size() : groups ? wp.async_groups[groups - 1] : 0;
  for (size_t k = 0; k < end; ++k) {
    const AsyncCopy& c = wp.async[k];
    uint8_t buf[16] = {};
    if (c.src_size) L.mem->load(c.src, buf, c.src_size);
    std::memcpy(&shared_[c.dst], buf, c.size);  // checked when it issued
  }
  wp.async.erase(wp.async.begin(), wp.async.begin() + ptrdiff_t(end));
  if (all) {
    wp.async_groups.clear();
    return;
  }
  wp.async_groups.erase(wp.async_groups.begin(), wp.async_groups.begin() + ptrdiff_t(groups));
  for (uint32_t& e : wp.async_groups) e -= uint32_t(end);
}

}  // namespace accelsim::ptx
