#include "ptx/fatbin.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>

#include "base/error.h"

namespace accelsim::ptx {

namespace {

constexpr uint32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kContainerMagic = 0xba55ed50;
constexpr uint64_t kFlagLz4 = 0x2000;   // nvcc 11/12 compressed entries
constexpr uint64_t kFlagZstd = 0x8000;  // nvcc 13 compressed entries

template <class T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[noreturn]] void bad(const std::string& where, uint64_t off, const std::string& what) {
  throw Error(where + ": fat binary at byte " + std::to_string(off) + ": " + what);
}

// One entry header (at least 64 bytes): kind, header size, stored size,
// compressed size, version, arch, flags, decompressed size.
FatbinEntry read_entry(const uint8_t* p, uint64_t left, const std::string& where, uint64_t off) {
  if (left < 64) bad(where, off, "truncated entry header");
  FatbinEntry e;
  e.kind = get<uint16_t>(p);
  const uint32_t hsize = get<uint32_t>(p + 4);
  const uint64_t stored = get<uint64_t>(p + 8);
  if (hsize < 64 || hsize > left || stored > left - hsize) bad(where, off, "entry sizes run past the container");
  const uint32_t compressed = get<uint32_t>(p + 16);
  e.minor = get<uint16_t>(p + 24);
  e.major = get<uint16_t>(p + 26);
  e.arch = get<uint32_t>(p + 28);
  e.flags = get<uint64_t>(p + 40);
  e.plain_bytes = hsize >= 64 ? get<uint64_t>(p + 56) : 0;
  e.payload = p + hsize;
  e.payload_bytes = stored;
  if (e.flags & (kFlagLz4 | kFlagZstd)) {
    e.compression = (e.flags & kFlagZstd) ? FatbinEntry::kZstd : FatbinEntry::kLz4;
    if (compressed == 0 || compressed > stored) bad(where, off, "compressed size outside the entry");
    e.payload_bytes = compressed;
  }
  return e;
}

// The system's decompressors, loaded on first use (a C ABI that has been
// stable for years: we declare the two functions we call).
struct Decompressors {
  using ZstdDecompress = size_t (*)(void*, size_t, const void*, size_t);
  using ZstdIsError = unsigned (*)(size_t);
  using Lz4Decompress = int (*)(const char*, char*, int, int);
  ZstdDecompress zstd = nullptr;
  ZstdIsError zstd_is_error = nullptr;
  Lz4Decompress lz4 = nullptr;
};

const Decompressors& decompressors() {
  static Decompressors d;  // immutable after the once-only load
  static std::once_flag once;
  std::call_once(once, [] {
    if (void* z = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL)) {
      d.zstd = reinterpret_cast<Decompressors::ZstdDecompress>(dlsym(z, "ZSTD_decompress"));
      d.zstd_is_error = reinterpret_cast<Decompressors::ZstdIsError>(dlsym(z, "ZSTD_isError"));
    }
    if (void* l = dlopen("liblz4.so.1", RTLD_NOW | RTLD_LOCAL))
      d.lz4 = reinterpret_cast<Decompressors::Lz4Decompress>(dlsym(l, "LZ4_decompress_safe"));
  });
  return d;
}

std::string decompress(const FatbinEntry& e, const std::string& where) {
  const Decompressors& d = decompressors();
  // Neither format can expand further (LZ4: 255 bytes per input byte; Zstandard:
  // a 128 KiB run from a 4-byte block), so a larger size is damage, not data.
  const uint64_t most = e.payload_bytes * (e.compression == FatbinEntry::kLz4 ? 255 : 32768);
  if (e.plain_bytes == 0 || e.plain_bytes > (uint64_t(1) << 32) || e.plain_bytes > most)
    throw Error(where + ": compressed fat-binary entry without a plausible decompressed size (" +
                std::to_string(e.plain_bytes) + " bytes from " + std::to_string(e.payload_bytes) + ")");
  std::string out(e.plain_bytes, '\0');
  if (e.compression == FatbinEntry::kZstd) {
    if (!d.zstd || !d.zstd_is_error)
      throw Error(where + ": the fat binary's entries are Zstandard-compressed (nvcc 13) and libzstd.so.1 "
                          "cannot be loaded: install it (Debian: libzstd1), or rebuild the program with "
                          "-Xfatbin -compress-mode=none");
    const size_t n = d.zstd(out.data(), out.size(), e.payload, e.payload_bytes);
    if (d.zstd_is_error(n) || n != out.size()) throw Error(where + ": corrupt Zstandard fat-binary entry");
  } else {
    if (!d.lz4)
      throw Error(where + ": the fat binary's entries are LZ4-compressed and liblz4.so.1 cannot be loaded: "
                          "install it (Debian: liblz4-1), or rebuild the program with -Xfatbin -compress-all=false");
    const int n = d.lz4(reinterpret_cast<const char*>(e.payload), out.data(), int(e.payload_bytes), int(out.size()));
    if (n < 0 || uint64_t(n) != out.size()) throw Error(where + ": corrupt LZ4 fat-binary entry");
  }
  return out;
}

}  // namespace

uint64_t fatbin_container_bytes(const uint8_t* data) {
  if (get<uint32_t>(data) != kContainerMagic) return 0;
  return uint64_t(get<uint16_t>(data + 6)) + get<uint64_t>(data + 8);
}

std::vector<FatbinEntry> parse_fatbin(const uint8_t* data, uint64_t n, const std::string& where) {
  std::vector<FatbinEntry> out;
  uint64_t off = 0;
  while (n - off >= 16 && get<uint32_t>(data + off) == kContainerMagic) {
    const uint16_t hsize = get<uint16_t>(data + off + 6);
    const uint64_t body = get<uint64_t>(data + off + 8);
    if (hsize < 16 || hsize > n - off || body > n - off - hsize) bad(where, off, "container sizes run past its end");
    uint64_t at = off + hsize;
    const uint64_t end = at + body;
    while (at < end) {
      FatbinEntry e = read_entry(data + at, end - at, where, at);
      at += get<uint32_t>(data + at + 4) + get<uint64_t>(data + at + 8);
      out.push_back(e);
    }
    off = std::min(n, (end + 7) / 8 * 8);  // containers are 8-aligned in a section
    while (off + 4 <= n && get<uint32_t>(data + off) == 0) off += 8;  // padding between them
  }
  if (off == 0) bad(where, 0, "no fat-binary container (magic 0xba55ed50)");
  return out;
}

std::string entry_bytes(const FatbinEntry& e, const std::string& where) {
  std::string s = e.compression == FatbinEntry::kNone
                      ? std::string(reinterpret_cast<const char*>(e.payload), e.payload_bytes)
                      : decompress(e, where);
  if (e.kind == FatbinEntry::kPtx)
    while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

const uint8_t* fatbin_from_wrapper(const void* wrapper, const std::string& where) {
  const auto* w = static_cast<const uint8_t*>(wrapper);
  if (get<uint32_t>(w) != kWrapperMagic) throw Error(where + ": not a fat-binary wrapper (magic)");
  const auto* data = get<const uint8_t*>(w + 8);
  if (!data || get<uint32_t>(data) != kContainerMagic) throw Error(where + ": fat-binary wrapper without a container");
  return data;
}

void order_for_gpu(std::vector<PtxText>& texts, uint32_t sm_version) {
  // best first: the newest not above the GPU, older ones, then newer ones
  std::stable_sort(texts.begin(), texts.end(), [sm_version](const PtxText& a, const PtxText& b) {
    const bool fa = a.arch <= sm_version, fb = b.arch <= sm_version;
    if (fa != fb) return fa;
    return fa ? a.arch > b.arch : a.arch < b.arch;
  });
}

std::vector<PtxText> ptx_texts(const std::vector<FatbinEntry>& entries, uint32_t sm_version,
                               const std::string& where) {
  std::vector<PtxText> out;
  for (const FatbinEntry& e : entries)
    if (e.kind == FatbinEntry::kPtx) out.push_back({e.arch, entry_bytes(e, where)});
  order_for_gpu(out, sm_version);
  return out;
}

std::vector<uint8_t> elf_fatbin_section(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open");
  std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (f.size() < 64 || std::memcmp(f.data(), "\x7f" "ELF", 4) != 0 || f[4] != 2)
    throw Error(path + ": not a 64-bit ELF file");
  const uint64_t shoff = get<uint64_t>(&f[0x28]);
  const uint16_t shentsize = get<uint16_t>(&f[0x3a]), shnum = get<uint16_t>(&f[0x3c]), shstrndx = get<uint16_t>(&f[0x3e]);
  if (shentsize < 64 || shstrndx >= shnum || shoff > f.size() || uint64_t(shnum) * shentsize > f.size() - shoff)
    throw Error(path + ": malformed ELF section table");
  auto sh = [&](uint32_t i) { return &f[shoff + uint64_t(i) * shentsize]; };
  const uint64_t stroff = get<uint64_t>(sh(shstrndx) + 0x18), strsize = get<uint64_t>(sh(shstrndx) + 0x20);
  if (stroff > f.size() || strsize > f.size() - stroff) throw Error(path + ": malformed ELF section names");
  for (uint32_t i = 0; i < shnum; ++i) {
    const uint32_t name = get<uint32_t>(sh(i));
    if (name >= strsize) continue;
    const char* s = reinterpret_cast<const char*>(&f[stroff + name]);
    if (std::strncmp(s, ".nv_fatbin", strsize - name) != 0) continue;
    const uint64_t off = get<uint64_t>(sh(i) + 0x18), size = get<uint64_t>(sh(i) + 0x20);
    if (off > f.size() || size > f.size() - off) throw Error(path + ": .nv_fatbin runs past the file");
    return std::vector<uint8_t>(f.begin() + off, f.begin() + off + size);
  }
  return {};
}

}  // namespace accelsim::ptx
