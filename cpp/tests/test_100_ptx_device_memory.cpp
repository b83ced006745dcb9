// 17x: device memory for the CUDA runtime (ptx/device_memory.h): host
// memory mapped at its own address, released allocations, texture records.
#include <sys/mman.h>

#include <cstring>

#include "base/error.h"
#include "ptx/device_memory.h"
#include "tests/harness.h"

using namespace accelsim;

TEST_CASE("171-mapped-host-memory-is-one-copy-for-host-and-device") {
  ptx::DeviceMemory mem;
  const uint64_t page = uint64_t(1) << ptx::DeviceMemory::kPageBits;
  void* want = reinterpret_cast<void*>(ptx::DeviceMemory::kHostWindow + 7 * page);
  void* host = mmap(want, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (host != want) return;  // the address is taken on this machine: nothing to check
  mem.map_host(host, 2 * page);
  const uint64_t a = reinterpret_cast<uint64_t>(host);
  CHECK(mem.valid(a, 2 * page));
  uint32_t v = 0xdeadbeef;
  mem.store(a + page - 2, &v, 4);  // across the two pages
  uint32_t back = 0;
  std::memcpy(&back, static_cast<uint8_t*>(host) + page - 2, 4);
  CHECK_EQ(back, 0xdeadbeefu);
  static_cast<uint8_t*>(host)[5] = 42;  // the host writes, the device reads
  uint8_t b = 0;
  mem.load(a + 5, &b, 1);
  CHECK_EQ(int(b), 42);
  CHECK_THROWS(mem.map_host(host, page), Error);  // overlap
  CHECK(mem.release(a));
  CHECK(!mem.valid(a, 1));
  munmap(host, 2 * page);
  CHECK_THROWS(mem.map_host(reinterpret_cast<void*>(0x1000), page), Error);  // below the window
}

TEST_CASE("172-released-allocations-and-textures-are-reported") {
  ptx::DeviceMemory mem;
  const uint64_t a = mem.allocate(1000), b = mem.allocate(64);
  CHECK(mem.release(a));
  CHECK(!mem.release(a));
  CHECK(!mem.valid(a, 4) && mem.valid(b, 64));
  CHECK_THROWS(mem.write(a, "x", 1), Error);
  ptx::DeviceMemory::Texture t;
  t.ptr = b, t.count = 16, t.elem_bytes = 4;
  const uint64_t h = mem.add_texture(t);
  CHECK(mem.texture(h) != nullptr);
  mem.remove_texture(h);
  CHECK(mem.texture(h) == nullptr);
  t.count = 17;  // one element past the allocation
  CHECK_THROWS(mem.add_texture(t), Error);
}
