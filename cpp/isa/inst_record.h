// The ISA-independent instruction record the timing model consumes. Fixed
// size and trivially copyable: a thread block's trace is a flat array of these
// plus one address pool, so decoding allocates per block, never per instruction.
#pragma once
#include <cstdint>

namespace accelsim::isa {

// Well-known unit classes get fixed ids; an ISA table may name more (ids from
// kFirstCustomUnit on, resolved through IsaTable::unit_name).
enum UnitClass : uint8_t {
  kUnitAlu = 0,      // generic ALU (MOV, S2R, ...)
  kUnitSp = 1,       // FP32
  kUnitInt = 2,      // INT32
  kUnitDp = 3,       // FP64
  kUnitSfu = 4,      // transcendentals
  kUnitTensor = 5,   // HMMA / IMMA
  kUnitBranch = 6,   // BRA, BSSY, ...
  kUnitMem = 7,      // LD/ST pipeline
  kUnitExit = 8,     // EXIT
  kUnitBarrier = 9,  // BAR
  kUnitNop = 10,     // NOP, DEPBAR and friends: no execution unit
  kUnitTex = 11,     // texture
  kFirstCustomUnit = 12,
};

enum MemSpace : uint8_t {
  kMemNone = 0,
  kMemGlobal = 1,
  kMemLocal = 2,
  kMemShared = 3,
  kMemConst = 4,
  kMemTex = 5,
  kMemGeneric = 6,  // resolved against the kernel's shared/local windows by the reader
};

enum InstFlags : uint8_t {
  kFlagLoad = 1 << 0,
  kFlagStore = 1 << 1,
  kFlagAtomic = 1 << 2,     // ATOM / ATOMG / RED / ATOMS
  kFlagBypassL1 = 1 << 3,   // .STRONG.GPU, .cg: skip L1D
  kFlagHasAddrs = 1 << 4,   // addrs valid at addr_offset
  kFlagPredOff = 1 << 5,    // active mask is 0
  kFlagReadOnly = 1 << 6,   // read-only / texture data path: LDG .CI/.NC/.CONSTANT, Kepler LDG
};

constexpr uint16_t kNoReg = 0;  // registers are stored +1 (R0 -> 1, RZ/R255 -> 256)

struct InstRecord {
  uint32_t pc;           // byte offset in the kernel
  uint32_t active_mask;  // bit i = lane i
  uint32_t line;         // source line (lineinfo), 0 if none
  uint32_t addr_offset;  // index of lane 0's address in the block's address pool
  int32_t imm;           // v5 immediate, 0 if absent
  uint16_t opcode;       // index into the ISA table's opcode list
  uint16_t dst;          // destination register + 1, kNoReg if none
  uint16_t src[4];       // source registers + 1, kNoReg if unused
  uint8_t unit;          // UnitClass (or custom id)
  uint8_t mem_space;     // MemSpace
  uint8_t access_bytes;  // per-thread access size, 0 if not memory
  uint8_t flags;         // InstFlags
  uint8_t nsrc;
  uint8_t warp;          // warp index inside the thread block
  uint8_t lat_class;     // PtxLatClass (isa/ptx_latency.h); 0: the unit's own latency
  uint8_t pad;
};
static_assert(sizeof(InstRecord) == 40, "keep the record compact");

}  // namespace accelsim::isa
