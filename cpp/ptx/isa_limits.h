// What the PTX ISA itself allows, independent of any GPU config: the ISA
// versions that exist, the targets each version accepts, and the state-space
// size limits ptxas enforces. The parser refuses a module that breaks them,
// as ptxas would, instead of running something no GPU could.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace accelsim::ptx {

// A PTX ISA version as major * 10 + minor ("8.1" -> 81); 0 when `text` is
// not the spelling of a released version (e.g. "6.6", "7.10", "abc").
// Versions newer than the table's newest (a later toolkit) are accepted.
uint32_t isa_version(std::string_view text);
// The oldest PTX ISA version whose .target accepts `target` ("sm_90a" -> 80);
// 0 for a name that is no known target.
uint32_t first_version_for(std::string_view target);
// "sm_50, sm_52, ..." (for messages).
std::string known_targets();
std::string version_text(uint32_t v);  // 81 -> "8.1"

// Kernel parameter space of one .entry: 4096 bytes, or 32764 bytes for
// .target sm_70 and later with .version 8.1 and later (the CUDA 12.1 limit;
// PTX ISA "Kernel Function Parameters"). `sm` 0 (no .target) counts as old.
uint32_t max_kernel_param_bytes(uint32_t version, uint32_t sm);
// Constant bank 0 (.const variables of one module): 64 KiB.
constexpr uint64_t kMaxConstBytes = uint64_t(1) << 16;
// Statically declared .shared memory of one kernel: 48 KiB (more needs
// dynamic shared memory, sized at launch).
constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;
// .local memory per thread: 512 KiB (CUDA's per-thread local memory limit).
constexpr uint64_t kMaxLocalBytes = 512 * 1024;
// Any single variable: sizes are kept in 32 bits.
constexpr uint64_t kMaxVariableBytes = (uint64_t(1) << 32) - 1;

}  // namespace accelsim::ptx
