#include "ptx/device_memory.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"

namespace accelsim::ptx {

namespace {
constexpr uint64_t kPage = uint64_t(1) << DeviceMemory::kPageBits;
constexpr uint64_t kHeapLimit = uint64_t(1) << 47;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

void DeviceMemory::insert_range(Range r) {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), r.begin,
                             [](uint64_t a, const Range& x) { return a < x.begin; });
  ranges_.insert(it, r);
  last_range_ = 0;
}

uint64_t DeviceMemory::allocate(uint64_t bytes) {
  uint64_t base = next_;
  uint64_t span = (std::max<uint64_t>(bytes, 1) + 255) / 256 * 256;
  if (span > std::min(kHeapLimit, kHostWindow) - base)
    throw Error("device memory exhausted allocating " + std::to_string(bytes) + " bytes");
  next_ += span;
  insert_range({base, base + bytes});
  return base;
}

void DeviceMemory::map_host(void* host, uint64_t bytes) {
  const uint64_t addr = reinterpret_cast<uint64_t>(host);
  if (addr < kHostWindow || addr % kPage || bytes % kPage || bytes == 0 || addr + bytes < addr)
    throw Error("host memory at " + hex(addr) + " (" + std::to_string(bytes) +
                " bytes) cannot be mapped: it must be whole pages at or above " + hex(kHostWindow));
  for (uint64_t p = addr >> kPageBits; p < (addr + bytes) >> kPageBits; ++p)
    if (pages_.count(p)) throw Error("host memory at " + hex(addr) + " overlaps device memory");
  for (uint64_t p = addr >> kPageBits; p < (addr + bytes) >> kPageBits; ++p)
    pages_[p] = static_cast<uint8_t*>(host) + ((p << kPageBits) - addr);
  insert_range({addr, addr + bytes});
  last_page_no_ = ~0ull;
}

bool DeviceMemory::release(uint64_t addr) {
  auto it = std::lower_bound(ranges_.begin(), ranges_.end(), addr,
                             [](const Range& x, uint64_t a) { return x.begin < a; });
  if (it == ranges_.end() || it->begin != addr) return false;
  if (addr >= kHostWindow)  // mapped host pages: the host frees them
    for (uint64_t p = addr >> kPageBits; p < (it->end + kPage - 1) >> kPageBits; ++p) pages_.erase(p);
  ranges_.erase(it);
  last_range_ = 0;
  last_page_no_ = ~0ull;
  return true;
}

uint64_t DeviceMemory::add_texture(uint64_t ptr, uint64_t count, uint32_t elem_bytes, char kind) {
  Texture t;
  t.ptr = ptr, t.count = count, t.elem_bytes = elem_bytes, t.kind = kind;
  t.channel_bits = uint8_t(8 * elem_bytes);
  return add_texture(t);
}

uint64_t DeviceMemory::add_texture(const Texture& t) {
  uint64_t bytes = t.count * t.elem_bytes;
  if (t.shape != Texture::Shape::kLinear1d)
    bytes = (std::max<uint64_t>(t.depth, 1) - 1) * t.pitch * std::max<uint64_t>(t.height, 1) +
            (std::max<uint64_t>(t.height, 1) - 1) * t.pitch + t.width * t.elem_bytes;
  if (t.elem_bytes == 0 || !valid(t.ptr, bytes)) throw Error("texture over memory outside every allocation");
  textures_.push_back(t);
  return textures_.size();
}

void DeviceMemory::remove_texture(uint64_t handle) {
  if (handle >= 1 && handle <= textures_.size()) textures_[handle - 1].elem_bytes = 0;  // handles are not reused
}

bool DeviceMemory::valid(uint64_t addr, uint64_t n) const {
  if (ranges_.empty()) return false;
  const Range& last = ranges_[last_range_];
  if (addr >= last.begin && addr + n <= last.end && addr + n >= addr) return true;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                             [](uint64_t a, const Range& r) { return a < r.begin; });
  if (it == ranges_.begin()) return false;
  --it;
  if (addr + n < addr || addr + n > it->end) return false;
  last_range_ = size_t(it - ranges_.begin());
  return true;
}

uint8_t* DeviceMemory::page(uint64_t page_no, bool create) const {
  if (page_no == last_page_no_) return last_page_;
  auto it = pages_.find(page_no);
  if (it == pages_.end()) {
    if (!create) return nullptr;
    auto& self = const_cast<DeviceMemory&>(*this);
    self.owned_.push_back(std::make_unique<uint8_t[]>(kPage));  // value-initialised: zeros
    it = self.pages_.emplace(page_no, self.owned_.back().get()).first;
  }
  last_page_no_ = page_no;
  last_page_ = it->second;
  return last_page_;
}

void DeviceMemory::load(uint64_t addr, void* dst, uint32_t n) const {
  uint64_t off = addr & (kPage - 1);
  if (off + n <= kPage) {
    uint8_t* p = page(addr >> kPageBits, false);
    if (p) std::memcpy(dst, p + off, n);
    else std::memset(dst, 0, n);
    return;
  }
  for (uint32_t i = 0; i < n; ++i) load(addr + i, static_cast<uint8_t*>(dst) + i, 1);
}

void DeviceMemory::store(uint64_t addr, const void* src, uint32_t n) {
  uint64_t off = addr & (kPage - 1);
  if (off + n <= kPage) {
    std::memcpy(page(addr >> kPageBits, true) + off, src, n);
    return;
  }
  for (uint32_t i = 0; i < n; ++i) store(addr + i, static_cast<const uint8_t*>(src) + i, 1);
}

void DeviceMemory::write(uint64_t addr, const void* src, uint64_t n) {
  if (n == 0) return;
  if (!valid(addr, n)) throw Error("copy to device address " + hex(addr) + " (" + std::to_string(n) +
                                   " bytes) is outside every allocation");
  const uint8_t* s = static_cast<const uint8_t*>(src);
  while (n) {
    uint32_t chunk = uint32_t(std::min<uint64_t>(n, kPage - (addr & (kPage - 1))));
    store(addr, s, chunk);
    addr += chunk, s += chunk, n -= chunk;
  }
}

void DeviceMemory::fill(uint64_t addr, uint8_t value, uint64_t n) {
  std::vector<uint8_t> buf(std::min<uint64_t>(n, kPage), value);
  while (n) {
    uint64_t chunk = std::min<uint64_t>(n, buf.size());
    write(addr, buf.data(), chunk);
    addr += chunk, n -= chunk;
  }
}

void DeviceMemory::read(uint64_t addr, void* dst, uint64_t n) const {
  if (n == 0) return;
  if (!valid(addr, n)) throw Error("copy from device address " + hex(addr) + " (" + std::to_string(n) +
                                   " bytes) is outside every allocation");
  uint8_t* d = static_cast<uint8_t*>(dst);
  while (n) {
    uint32_t chunk = uint32_t(std::min<uint64_t>(n, kPage - (addr & (kPage - 1))));
    load(addr, d, chunk);
    addr += chunk, d += chunk, n -= chunk;
  }
}

}  // namespace accelsim::ptx
