// The range a trace address may take. CUDA's unified addressing puts device
// memory in the host process's virtual address space, and no 64-bit host
// (x86-64 with 5-level paging, ARMv8.2 LVA) has more than 57 bits of it, so a
// traced address at or above 2^57 is corrupt. Rejecting it when the trace is
// read keeps every later address computation (line + line size, copy end,
// set index) far from the 2^64 wrap.
#pragma once
#include <cstdint>

namespace accelsim::trace {

inline constexpr uint64_t kAddressLimit = uint64_t{1} << 57;  // first address not allowed

// Whether the bytes [address, address + bytes) lie below kAddressLimit.
inline bool in_address_space(uint64_t address, uint64_t bytes) {
  return address < kAddressLimit && bytes <= kAddressLimit - address;
}

}  // namespace accelsim::trace
