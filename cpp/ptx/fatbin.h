// The CUDA fat binary: what nvcc embeds in a host program for its kernels.
// A program registers a wrapper (magic 0x466243b1) pointing at a container
// (magic 0xba55ed50: header, then entries), each entry a PTX text or an ELF
// cubin for one architecture, possibly compressed (nvcc 12: LZ4; nvcc 13:
// Zstandard). This reads the entries and the PTX texts; layouts in
// docs/cuda_apps.md. Decompression uses the system's libzstd / liblz4
// (loaded when first needed), so a program needs no extra library linked.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace accelsim::ptx {

struct FatbinEntry {
  enum Kind : uint16_t { kPtx = 1, kElf = 2 };
  uint16_t kind = 0;
  uint32_t arch = 0;                // sm_XX / compute_XX as XX (75, 80, ...)
  uint16_t major = 0, minor = 0;    // PTX ISA version of a PTX entry
  uint64_t flags = 0;
  enum Compression { kNone, kLz4, kZstd } compression = kNone;
  const uint8_t* payload = nullptr; // inside the container (compressed if so)
  uint64_t payload_bytes = 0;       // the stored bytes (compressed size when compressed)
  uint64_t plain_bytes = 0;         // after decompression (0: unknown / not compressed)
};

// Entries of every container in [data, data + n) (containers may follow
// each other). Throws Error naming `where` and the offset on a malformed one.
std::vector<FatbinEntry> parse_fatbin(const uint8_t* data, uint64_t n, const std::string& where);
// The containers' extent starting at `data` when only the start is known
// (a registered wrapper): the header's size fields, first container only.
uint64_t fatbin_container_bytes(const uint8_t* data);
// The entry's bytes, decompressed if needed; a PTX text loses its trailing
// NULs. Throws Error when the compression's library is missing or the data
// is corrupt (the message says which library and how to get it).
std::string entry_bytes(const FatbinEntry& e, const std::string& where);

// A registered wrapper (__cudaRegisterFatBinary's argument): its container.
// Throws Error when the magic is wrong.
const uint8_t* fatbin_from_wrapper(const void* wrapper, const std::string& where);

// The .nv_fatbin section of an ELF file (a program or shared library), for
// tools that look at a binary without running it; empty when it has none.
std::vector<uint8_t> elf_fatbin_section(const std::string& path);

// The PTX entries' texts (as entry_bytes) with their architectures, best
// first for a GPU of `sm_version`: the newest arch not above it, then the
// older ones, then the newer ones. Empty when the binary holds no PTX.
struct PtxText {
  uint32_t arch = 0;
  std::string text;
};
std::vector<PtxText> ptx_texts(const std::vector<FatbinEntry>& entries, uint32_t sm_version,
                               const std::string& where);
// The same order for texts found another way (cuobjdump -ptx).
void order_for_gpu(std::vector<PtxText>& texts, uint32_t sm_version);

}  // namespace accelsim::ptx
