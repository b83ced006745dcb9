// Host memory the simulated device addresses at the same address: managed
// memory (cudaMallocManaged, __managed__ variables) and pinned host memory
// (cudaMallocHost, cudaHostAlloc). Each allocation is its own mapping in a
// window of the address space kept for it (ptx::DeviceMemory::kHostWindow
// and up), page-aligned, so the device memory can point at it directly and
// host and kernels share one copy without any synchronisation copies.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>

namespace accelsim::cudart {

class HostMemory {
 public:
  // A zeroed mapping of at least `bytes` (whole 64 KiB pages) or nullptr.
  void* allocate(size_t bytes, size_t* mapped_bytes);
  // Unmaps an allocation this made; false when `p` is not one.
  bool release(void* p);
  // The allocation holding p (its start and size), or nullptr.
  void* base_of(const void* p, size_t* bytes = nullptr) const;

 private:
  uint64_t next_ = 0;                  // next address to try
  std::map<uint64_t, size_t> blocks_;  // start -> mapped bytes
};

}  // namespace accelsim::cudart
