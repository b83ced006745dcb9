// Simulated device memory for PTX mode: a sparse paged global address space
// (cudaMalloc'd buffers, module .global/.const variables) with the list of
// allocations, so an access outside every allocation is reported instead of
// corrupting anything. Pages appear zero-filled on first touch.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace accelsim::ptx {

class DeviceMemory {
 public:
  static constexpr uint64_t kHeapBase = 0x0000000100000000ull;  // first allocation
  static constexpr uint64_t kPageBits = 16;                    // 64 KiB pages

  // A fresh range of `bytes` (aligned to 256 like cudaMalloc); 0 bytes gives
  // a valid, empty allocation. Throws Error when the address space is used up.
  uint64_t allocate(uint64_t bytes);
  // Host memory the device addresses at the host's own address (managed and
  // mapped pinned memory of the CUDA runtime): loads and stores go straight
  // to it, so host and device see one copy. `host` must be page-aligned
  // (kPageBits) at or above kHostWindow, `bytes` a whole number of pages, and
  // the memory must outlive this object or be released first. Throws Error
  // on misalignment or overlap.
  void map_host(void* host, uint64_t bytes);
  static constexpr uint64_t kHostWindow = 0x0000500000000000ull;  // allocate() stays below
  // Ends the allocation that starts at `addr` (cudaFree): later accesses to
  // it are reported. False when no allocation starts there.
  bool release(uint64_t addr);
  // True if [addr, addr+n) lies inside one allocation.
  bool valid(uint64_t addr, uint64_t n) const;
  // Host copies; throw Error naming the address if out of bounds.
  void write(uint64_t addr, const void* src, uint64_t n);
  void read(uint64_t addr, void* dst, uint64_t n) const;
  void fill(uint64_t addr, uint8_t value, uint64_t n);
  // Unchecked access for the emulator (the caller checked valid()).
  void load(uint64_t addr, void* dst, uint32_t n) const;
  void store(uint64_t addr, const void* src, uint32_t n);
  uint64_t bytes_allocated() const { return next_ - kHeapBase; }

  // Texture and surface objects, as the CUDA runtime describes them: linear
  // 1-D memory, pitched 2-D memory or a CUDA array (rows of `pitch` bytes,
  // slices of pitch x height; a layered array's layers are its slices), of
  // elements of `elem_bytes` = channels x channel_bits / 8, read as float
  // ('f', 16-bit channels are halves) or integer ('i', 'u'), and the
  // sampler state tex / tld4 apply (ptx/texture_sampler.h). Handles are
  // never 0.
  struct Texture {
    uint64_t ptr = 0, count = 0;       // linear 1-D: base and elements
    uint32_t elem_bytes = 4;
    char kind = 'f';
    enum class Shape : uint8_t { kLinear1d, kPitch2d, kArray } shape = Shape::kLinear1d;
    uint64_t width = 0, height = 0, depth = 0;  // elements (pitch 2-D, arrays)
    uint64_t pitch = 0;                          // bytes between rows (pitch 2-D, arrays)
    uint8_t channels = 1, channel_bits = 32;
    uint8_t address_mode[3] = {0, 0, 0};         // cudaTextureAddressMode per dimension
    uint8_t filter = 0;                          // 0 point, 1 linear
    bool normalized_coords = false;
    bool normalized_read = false;                // cudaReadModeNormalizedFloat
    bool surface = false;
    bool layered = false;                        // a layered array: depth counts layers
    float border[4] = {0, 0, 0, 0};              // cudaAddressModeBorder's colour
  };
  uint64_t add_texture(uint64_t ptr, uint64_t count, uint32_t elem_bytes, char kind);
  uint64_t add_texture(const Texture& t);  // throws Error when its memory is outside every allocation
  void remove_texture(uint64_t handle);    // later reads of it are reported
  const Texture* texture(uint64_t handle) const {
    return handle >= 1 && handle <= textures_.size() && textures_[handle - 1].elem_bytes ? &textures_[handle - 1]
                                                                                       : nullptr;
  }

 private:
  struct Range {
    uint64_t begin, end;
  };
  std::vector<Range> ranges_;  // ascending (bump allocation)
  std::vector<Texture> textures_;
  mutable size_t last_range_ = 0;
  uint64_t next_ = kHeapBase;
  std::unordered_map<uint64_t, uint8_t*> pages_;    // page number -> its bytes
  std::vector<std::unique_ptr<uint8_t[]>> owned_;    // pages not mapped from the host
  void insert_range(Range r);
  mutable uint64_t last_page_no_ = ~0ull;
  mutable uint8_t* last_page_ = nullptr;
  uint8_t* page(uint64_t page_no, bool create) const;
};

}  // namespace accelsim::ptx
