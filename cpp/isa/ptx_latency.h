// Latency classes of per-PTX-instruction records (PTX mode, records="ptx"):
// GPGPU-Sim's PTX timing assigns each PTX instruction, by opcode and type, a
// latency and initiation interval from its -ptx_opcode_latency_* /
// -ptx_opcode_initiation_* options instead of the executing unit's. A record
// carries the class; the SM looks the cycles up in its config's table
// (SmParams::ptx_timing). SASS records carry kLatUnit, or one of the SASS
// classes below (sass_lat_class, isa/sass_latency.h).
#pragma once
#include <cstdint>

namespace accelsim::isa {

enum PtxLatClass : uint8_t {
  kLatUnit = 0,  // the executing unit's latency and initiation (every SASS record)
  kLatAlu,       // moves, logic, compares, conversions, branches: 1 cycle, 1 cycle
  kLatIntAdd, kLatIntMax, kLatIntMul, kLatIntMad, kLatIntDiv, kLatIntShfl,
  kLatIntMul24, kLatIntMad24,  // the int mul / mad values + 1 (extra masking step)
  kLatFpAdd, kLatFpMax, kLatFpMul, kLatFpMad, kLatFpDiv,
  kLatDpAdd, kLatDpMax, kLatDpMul, kLatDpMad, kLatDpDiv,
  kLatSfu, kLatTensor,
  // SASS records of opcodes whose latency differs inside their unit (the
  // config's sass_latency_* / sass_initiation_*; 0 there: the unit's own):
  // paired-half arithmetic on the FP32 pipe, and each MUFU function
  kLatHalf, kLatMufuEx2, kLatMufuLg2, kLatMufuRsq, kLatMufuRcp, kLatMufuSin, kLatMufuCos, kLatMufuSqrt,
  kLatClasses
};
constexpr uint8_t kLatFirstSass = kLatHalf;

// Entries of a per-unit timing table indexed by class (masked: any byte is safe).
constexpr uint32_t kLatTableSize = 32;
static_assert(kLatClasses <= kLatTableSize);

struct UnitTiming {
  uint32_t latency = 1, initiation = 1;
};

}  // namespace accelsim::isa
