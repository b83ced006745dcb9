// atom / red: read-modify-write of global or shared memory, lanes in order
// (deterministic).
#include "ptx/emulator.h"
#include "ptx/lane.h"

namespace accelsim::ptx {

namespace {

// The value an atomic leaves in memory: `old` combined with operand b (and
// cas's c) by the instruction's operation, at n bytes; false: no such operation.
bool combine(const Inst& in, uint32_t n, uint64_t old, uint64_t b, uint64_t c, uint64_t& r) {
  auto umask = [&](uint64_t v) { return n == 8 ? v : v & 0xffffffffu; };
  r = old;
  switch (in.sub) {
    case kAtAdd:
      if (in.type == kF32) r = bits<float>(as<float>(old) + as<float>(b));
      else if (in.type == kF64) r = bits<double>(as<double>(old) + as<double>(b));
      else r = umask(old + b);
      return true;
    case kAtMin:
    case kAtMax: {
      bool less;
      if (in.type == kS32) less = as<int32_t>(b) < as<int32_t>(old);
      else if (in.type == kS64) less = int64_t(b) < int64_t(old);
      else if (in.type == kF32) less = as<float>(b) < as<float>(old);
      else less = umask(b) < umask(old);
      if ((in.sub == kAtMin) == less) r = b;
      return true;
    }
    case kAtInc: r = umask(old) >= umask(b) ? 0 : umask(old + 1); return true;
    case kAtDec: r = (umask(old) == 0 || umask(old) > umask(b)) ? umask(b) : umask(old - 1); return true;
    case kAtCas: r = umask(old) == umask(b) ? c : old; return true;
    case kAtExch: r = b; return true;
    case kAtAnd: r = old & b; return true;
    case kAtOr: r = old | b; return true;
    case kAtXor: r = old ^ b; return true;
    default: return false;
  }
}

}  // namespace

void CtaEmulator::atomic(uint32_t w, const Inst& in, uint32_t mask) {
  Warp& wp = warps_[w];
  const bool red = in.op == Op::kRed;
  const Operand& addr = red ? in.ops[0] : in.ops[1];
  const size_t vi = red ? 1 : 2;
  const uint32_t n = uint32_t(ty_bytes(in.type));
  uint8_t rec_space = 0;
  for (uint32_t m = mask; m; m &= m - 1) {  // lanes in order: deterministic
    uint32_t l = uint32_t(__builtin_ctz(m));
    Space sp;
    uint64_t a = address(wp, addr, l, in, sp);
    uint64_t old = load(w, l, sp, a, n, in);
    const uint64_t c = in.sub == kAtCas ? value(wp, w, in.ops[3], l) : 0;
    uint64_t r;
    if (!combine(in, n, old, value(wp, w, in.ops[vi], l), c, r)) fault(w, l, in, "unsupported atomic operation");
    store(w, l, sp, a, n, r, in);
    if (!red) reg(wp, in.ops[0].reg, l) = old;
    lane_addr_[l] = sp == kSpShared && (in.space == kSpNone || in.space == kSpGeneric) ? L.shmem_base + a : a;
    if (!rec_space) rec_space = sp == kSpShared ? isa::kMemShared : isa::kMemGlobal;
  }
  record(w, int32_t(&in - P.insts.data()), mask, in, rec_space);
}

}  // namespace accelsim::ptx
