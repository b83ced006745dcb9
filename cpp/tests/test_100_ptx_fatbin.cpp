// 16x: fat binaries (ptx/fatbin.h): containers of PTX and ELF entries,
// plain, LZ4- and Zstandard-compressed, as nvcc embeds them.
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "ptx/fatbin.h"
#include "tests/harness.h"

using namespace accelsim;

namespace {

void put(std::vector<uint8_t>& v, size_t at, const void* p, size_t n) {
  if (v.size() < at + n) v.resize(at + n);
  std::memcpy(v.data() + at, p, n);
}

template <class T>
void put(std::vector<uint8_t>& v, size_t at, T x) {
  put(v, at, &x, sizeof x);
}

// One entry: kind, arch, flags, stored payload and (compressed) sizes.
std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, uint64_t flags, const std::string& stored,
                           uint64_t plain_bytes) {
  std::vector<uint8_t> e(64, 0);
  const uint64_t padded = (stored.size() + 7) / 8 * 8;
  put<uint16_t>(e, 0, kind);
  put<uint16_t>(e, 2, 0x0101);
  put<uint32_t>(e, 4, 64);
  put<uint64_t>(e, 8, padded);
  put<uint32_t>(e, 16, flags & 0xa000 ? uint32_t(stored.size()) : 0);
  put<uint16_t>(e, 26, 9);  // PTX ISA 9.0
  put<uint32_t>(e, 28, arch);
  put<uint64_t>(e, 40, flags);
  put<uint64_t>(e, 56, plain_bytes);
  put(e, 64, stored.data(), stored.size());
  e.resize(64 + padded, 0);
  return e;
}

std::vector<uint8_t> container(const std::vector<std::vector<uint8_t>>& entries) {
  std::vector<uint8_t> c(16, 0);
  uint64_t body = 0;
  for (const auto& e : entries) body += e.size();
  put<uint32_t>(c, 0, 0xba55ed50);
  put<uint16_t>(c, 4, 1);
  put<uint16_t>(c, 6, 16);
  put<uint64_t>(c, 8, body);
  for (const auto& e : entries) c.insert(c.end(), e.begin(), e.end());
  return c;
}

const std::string kPtx = ".version 9.0\n.target sm_75\n.address_size 64\n// padding padding padding padding\n";

}  // namespace

TEST_CASE("161-fatbin-entries-plain-ptx-and-elf-best-arch-first") {
  auto c = container({entry(2, 75, 0x11, std::string("\x7f" "ELF....", 8), 0),
                      entry(1, 80, 0x11, kPtx + "// 80\n", 0), entry(1, 75, 0x11, kPtx + "// 75\n", 0)});
  auto entries = ptx::parse_fatbin(c.data(), c.size(), "t");
  CHECK_EQ(entries.size(), size_t(3));
  CHECK_EQ(ptx::fatbin_container_bytes(c.data()), uint64_t(c.size()));
  auto texts = ptx::ptx_texts(entries, 86, "t");  // newest arch not above sm_86 first
  CHECK_EQ(texts.size(), size_t(2));
  CHECK_EQ(texts[0].arch, 80u);
  CHECK_EQ(texts[0].text, kPtx + "// 80\n");
  CHECK_EQ(ptx::ptx_texts(entries, 70, "t")[0].arch, 75u);  // none at or below: the oldest newer one
}

TEST_CASE("162-fatbin-compressed-entries-decode-through-the-system-libraries") {
  void* z = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
  void* l = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!z || !l) return;  // the runtime's message for a missing library is checked by the pytest suite
  using Zc = size_t (*)(void*, size_t, const void*, size_t, int);
  using Lc = int (*)(const char*, char*, int, int);
  auto zc = reinterpret_cast<Zc>(dlsym(z, "ZSTD_compress"));
  auto lc = reinterpret_cast<Lc>(dlsym(l, "LZ4_compress_default"));
  std::string text = kPtx;
  for (int i = 0; i < 50; ++i) text += "// line " + std::to_string(i) + "\n";
  std::string zbuf(text.size() + 64, '\0'), lbuf(text.size() + 64, '\0');
  zbuf.resize(zc(zbuf.data(), zbuf.size(), text.data(), text.size(), 3));
  lbuf.resize(size_t(lc(text.data(), lbuf.data(), int(text.size()), int(lbuf.size()))));
  auto c = container({entry(1, 75, 0x8011, zbuf, text.size()), entry(1, 70, 0x2011, lbuf, text.size())});
  auto entries = ptx::parse_fatbin(c.data(), c.size(), "t");
  CHECK_EQ(entries[0].compression, ptx::FatbinEntry::kZstd);
  CHECK_EQ(entries[1].compression, ptx::FatbinEntry::kLz4);
  CHECK_EQ(ptx::entry_bytes(entries[0], "t"), text);
  CHECK_EQ(ptx::entry_bytes(entries[1], "t"), text);
  std::string corrupt = zbuf.substr(0, zbuf.size() - 3);  // a truncated frame
  auto bad = container({entry(1, 75, 0x8011, corrupt, text.size())});
  CHECK_THROWS(ptx::entry_bytes(ptx::parse_fatbin(bad.data(), bad.size(), "t")[0], "t"), Error);
}

TEST_CASE("163-fatbin-malformed-containers-are-errors") {
  auto c = container({entry(1, 75, 0x11, kPtx, 0)});
  CHECK_THROWS(ptx::parse_fatbin(c.data(), 8, "t"), Error);  // no whole header
  auto cut = c;
  put<uint64_t>(cut, 8, uint64_t(1) << 40);  // body longer than the bytes
  CHECK_THROWS(ptx::parse_fatbin(cut.data(), cut.size(), "t"), Error);
  auto bad_entry = c;
  put<uint32_t>(bad_entry, 16 + 4, 1u << 30);  // entry header size past the end
  CHECK_THROWS(ptx::parse_fatbin(bad_entry.data(), bad_entry.size(), "t"), Error);
  std::vector<uint8_t> wrapper(24, 0);
  CHECK_THROWS(ptx::fatbin_from_wrapper(wrapper.data(), "t"), Error);
}

TEST_CASE("168-fatbin-damage-the-fuzzer-found-is-an-error-not-a-read-past-the-end") {
  auto c = container({entry(1, 75, 0x11, kPtx, 0)});
  auto big_header = c;
  put<uint16_t>(big_header, 6, 0xffff);  // container header longer than the bytes
  CHECK_THROWS(ptx::parse_fatbin(big_header.data(), big_header.size(), "t"), Error);
  // a container ending off the 8-byte grid at the end of the bytes: the next
  // container would start past the end, so there is none
  auto odd = c;
  put<uint64_t>(odd, 8, c.size() - 16 - 3);
  put<uint64_t>(odd, 16 + 8, c.size() - 16 - 64 - 3);
  odd.resize(c.size() - 3);
  CHECK_EQ(ptx::parse_fatbin(odd.data(), odd.size(), "t").size(), size_t(1));
  // a compressed entry claiming 4 GiB from a few bytes is refused before allocating
  auto huge = container({entry(1, 75, 0x8011, std::string(40, 'x'), uint64_t(1) << 32)});
  auto entries = ptx::parse_fatbin(huge.data(), huge.size(), "t");
  CHECK_THROWS(ptx::entry_bytes(entries[0], "t"), Error);
}
