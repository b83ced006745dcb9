// Physical address -> (memory partition, L2 slice, DRAM bank group / bank,
// row, column). The mapping is a pure function of the config, built once;
// map() does no allocation and no string work, so it can sit in the hot path.
//
// Layout: the address is cut into interleave-sized chunks. The chunk index is
// hashed onto one of U = partitions x slices_per_partition L2 slices (the
// hash is chosen by name: linear, xor, ipoly); what is left of the chunk index
// plus the slice number forms the partition-local DRAM address, which splits
// low-to-high into column (byte in row), bank, row. See docs/memory_system.md §7.1.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace accelsim::config {
struct GpuConfig;
}

namespace accelsim::mem {

enum class PartitionHash : uint8_t { linear, xor_fold, ipoly };

// Known hash names (registry order); unknown names raise ConfigError that
// lists these.
std::span<const char* const> partition_hash_names();
PartitionHash partition_hash_from_name(const std::string& name);

struct AddressMapParams {
  int64_t partitions = 32;
  int64_t slices_per_partition = 2;
  int64_t interleave_bytes = 256;
  std::string hashing = "ipoly";
  int64_t dram_banks = 16;
  int64_t dram_bank_groups = 4;
  int64_t dram_row_bytes = 2048;
  bool xor_bank_indexing = false;

  static AddressMapParams from_config(const config::GpuConfig& cfg);
};

struct DecodedAddress {
  uint32_t partition = 0;     // memory partition = DRAM channel
  uint32_t slice = 0;         // L2 slice inside the partition
  uint32_t global_slice = 0;  // partition * slices_per_partition + slice
  uint32_t bank = 0;          // DRAM bank inside the channel (after XOR indexing)
  uint32_t bank_group = 0;
  uint32_t column = 0;        // byte offset inside the DRAM row
  uint64_t row = 0;
  uint64_t local = 0;         // byte address inside the partition's DRAM channel
};

class AddressMap {
 public:
  explicit AddressMap(const AddressMapParams& params);

  DecodedAddress map(uint64_t addr) const;
  // Inverse of map(): uses global_slice and local only.
  uint64_t unmap(const DecodedAddress& d) const;
  // L2 slice only (cheaper than map()).
  uint32_t global_slice(uint64_t addr) const;

  uint32_t slice_count() const { return units_; }
  PartitionHash hash() const { return hash_; }
  // The GF(2) polynomial used for the power-of-two part (bit i = x^i), 0 if none.
  uint32_t ipoly_polynomial() const { return poly_; }

 private:
  uint32_t high_hash(uint64_t high) const;
  void build_ipoly_tables();
  void decode_dram(uint64_t local, DecodedAddress& d) const;

  PartitionHash hash_;
  uint32_t units_;          // U = partitions * slices
  uint32_t slices_;         // slices per partition
  uint32_t pow2_bits_;      // a: U = 2^a * odd_
  uint32_t odd_;            // odd factor of U
  uint32_t interleave_bits_;
  uint32_t row_bits_;
  uint32_t bank_bits_;
  uint32_t bank_groups_;
  bool xor_banks_;
  uint32_t poly_ = 0;
  // residue((byte value) * x^(a + 8k)) mod P for byte position k.
  std::array<std::array<uint32_t, 256>, 8> ipoly_table_{};
};

// Irreducible polynomial over GF(2) of the given degree (1..16) used by IPOLY;
// bit i is the coefficient of x^i (the x^degree bit is set).
uint32_t ipoly_polynomial_for_degree(uint32_t degree);

}  // namespace accelsim::mem
