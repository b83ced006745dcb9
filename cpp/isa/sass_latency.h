// Which SASS instructions take a latency of their own inside their unit
// (isa/ptx_latency.h's SASS classes): HADD2 / HMUL2 / HFMA2 (paired halves:
// 6 cycles on Volta's FP32 pipe where FFMA takes 4) and MUFU by function
// (EX2, LG2, RSQ, RCP, SIN, COS, SQRT). Read from the spelling a trace, a
// SASS guide or the lowering table gives: "MUFU.EX2", "HFMA2.MMA".
#pragma once
#include <cstdint>
#include <string_view>

#include "isa/ptx_latency.h"

namespace accelsim::isa {

// kLatUnit for every other opcode; `base` is the opcode before its first '.',
// `modifiers` the rest ("EX2.FTZ").
inline uint8_t sass_lat_class(std::string_view base, std::string_view modifiers) {
  if (base == "HADD2" || base == "HMUL2" || base == "HFMA2" || base == "HADD2_32I" || base == "HMUL2_32I" ||
      base == "HFMA2_32I")
    return kLatHalf;
  if (base != "MUFU") return kLatUnit;
  struct Fn {
    std::string_view name;
    uint8_t cls;
  };
  static constexpr Fn kFns[] = {{"EX2", kLatMufuEx2}, {"LG2", kLatMufuLg2}, {"RSQ", kLatMufuRsq}, {"RCP", kLatMufuRcp},
                                {"SIN", kLatMufuSin}, {"COS", kLatMufuCos}, {"SQRT", kLatMufuSqrt}};
  const std::string_view fn = modifiers.substr(0, modifiers.find('.'));
  for (const Fn& f : kFns)
    if (f.name == fn) return f.cls;
  return kLatUnit;
}

// The same for a whole spelling ("MUFU.EX2.FTZ").
inline uint8_t sass_lat_class(std::string_view spelling) {
  const size_t dot = spelling.find('.');
  return sass_lat_class(spelling.substr(0, dot), dot == std::string_view::npos ? "" : spelling.substr(dot + 1));
}

}  // namespace accelsim::isa
