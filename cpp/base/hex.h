// An address or a raw value as messages print it: 0x-prefixed, lower case.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace accelsim {

inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace accelsim
