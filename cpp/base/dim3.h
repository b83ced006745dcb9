// A grid or block shape (CUDA's dim3): what a trace header states and what a
// PTX launch gives, the one type both front ends use.
#pragma once
#include <cstdint>

namespace accelsim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

}  // namespace accelsim
