#include "host_memory.h"

#include <sys/mman.h>

#include "ptx/device_memory.h"

namespace accelsim::cudart {

namespace {
constexpr uint64_t kPage = uint64_t(1) << ptx::DeviceMemory::kPageBits;
constexpr uint64_t kWindowEnd = 0x0000700000000000ull;  // well below the usual mmap and stack area
}  // namespace

void* HostMemory::allocate(size_t bytes, size_t* mapped_bytes) {
  const uint64_t span = (std::max<uint64_t>(bytes, 1) + kPage - 1) / kPage * kPage;
  if (next_ == 0) next_ = ptx::DeviceMemory::kHostWindow;
  // MAP_FIXED_NOREPLACE: never over an existing mapping; skip ahead if taken.
  for (int tries = 0; tries < 64 && next_ + span <= kWindowEnd; ++tries) {
    void* want = reinterpret_cast<void*>(next_);
    void* got = mmap(want, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == want) {
      blocks_[next_] = span;
      next_ += span + kPage;  // a guard page between allocations
      if (mapped_bytes) *mapped_bytes = span;
      return got;
    }
    if (got != MAP_FAILED) munmap(got, span);  // an old kernel ignoring the flag placed it elsewhere
    next_ += (uint64_t(1) << 32);               // something lives here: try further on
  }
  return nullptr;
}

bool HostMemory::release(void* p) {
  auto it = blocks_.find(reinterpret_cast<uint64_t>(p));
  if (it == blocks_.end()) return false;
  munmap(p, it->second);
  blocks_.erase(it);
  return true;
}

void* HostMemory::base_of(const void* p, size_t* bytes) const {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  auto it = blocks_.upper_bound(a);
  if (it == blocks_.begin()) return nullptr;
  --it;
  if (a >= it->first + it->second) return nullptr;
  if (bytes) *bytes = it->second;
  return reinterpret_cast<void*>(it->first);
}

}  // namespace accelsim::cudart
