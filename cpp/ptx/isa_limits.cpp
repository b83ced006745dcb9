#include "ptx/isa_limits.h"

#include <iterator>

namespace accelsim::ptx {

namespace {

// Released PTX ISA versions (PTX ISA release history), major * 10 + minor.
constexpr uint32_t kVersions[] = {10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 30, 31, 32, 40, 41, 42, 43,
                                  50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78,
                                  80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

// The version that introduced each target (PTX ISA, ".target" notes), as
// ptxas 13.0 enforces it ("PTX .version X does not support .target sm_Y").
struct TargetRow {
  const char* name;
  uint32_t first;
};
constexpr TargetRow kTargets[] = {
    {"sm_10", 10},   {"sm_11", 10},    {"sm_12", 12},    {"sm_13", 12},    {"sm_20", 20},
    {"sm_21", 20},   {"sm_30", 30},    {"sm_32", 40},    {"sm_35", 31},    {"sm_37", 41},
    {"sm_50", 40},   {"sm_52", 41},    {"sm_53", 42},    {"sm_60", 50},    {"sm_61", 50},
    {"sm_62", 50},   {"sm_70", 60},    {"sm_72", 61},    {"sm_75", 63},    {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},    {"sm_88", 73},    {"sm_89", 78},    {"sm_90", 78},
    {"sm_90a", 80},  {"sm_100", 86},   {"sm_100a", 86},  {"sm_100f", 88},  {"sm_101", 86},
    {"sm_101a", 86}, {"sm_101f", 88},  {"sm_103", 88},   {"sm_103a", 88},  {"sm_103f", 88},
    {"sm_110", 90},  {"sm_110a", 90},  {"sm_110f", 90},  {"sm_120", 87},   {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},   {"sm_121a", 88},  {"sm_121f", 88}};

}  // namespace

uint32_t isa_version(std::string_view t) {
  // "M.m": one or two digits, a dot, one digit
  const size_t dot = t.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 2 || t.size() != dot + 2) return 0;
  uint32_t major = 0;
  for (size_t i = 0; i < dot; ++i) {
    if (t[i] < '0' || t[i] > '9') return 0;
    major = major * 10 + uint32_t(t[i] - '0');
  }
  if (t[dot + 1] < '0' || t[dot + 1] > '9') return 0;
  const uint32_t v = major * 10 + uint32_t(t[dot + 1] - '0');
  if (v > std::end(kVersions)[-1]) return v;  // a newer toolkit's PTX
  for (uint32_t k : kVersions)
    if (k == v) return v;
  return 0;
}

uint32_t first_version_for(std::string_view target) {
  for (const TargetRow& r : kTargets)
    if (target == r.name) return r.first;
  return 0;
}

std::string known_targets() {
  std::string s;
  for (const TargetRow& r : kTargets) s.append(s.empty() ? "" : ", ").append(r.name);
  return s;
}

std::string version_text(uint32_t v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }

uint32_t max_kernel_param_bytes(uint32_t version, uint32_t sm) {
  return version >= 81 && sm >= 70 ? 32764 : 4096;
}

}  // namespace accelsim::ptx
