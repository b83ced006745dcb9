#include "mem/address_map.h"

#include <bit>

#include "base/error.h"
#include "config/gpu_config.h"

namespace accelsim::mem {
namespace {

constexpr std::array<const char*, 3> kHashNames = {"linear", "xor", "ipoly"};

// One primitive (hence irreducible) polynomial per degree, bit i = x^i.
// Any irreducible P makes i * x^k mod P distinct for the 2^deg values of i,
// which is what makes IPOLY conflict-free for power-of-two strides; the
// tests re-check irreducibility by trial division.
constexpr std::array<uint32_t, 17> kIpolyPolys = {
    0,        // degree 0: unused (one slice)
    0x3,      // x + 1
    0x7,      // x^2 + x + 1
    0xB,      // x^3 + x + 1
    0x13,     // x^4 + x + 1
    0x25,     // x^5 + x^2 + 1
    0x43,     // x^6 + x + 1
    0x83,     // x^7 + x + 1
    0x11D,    // x^8 + x^4 + x^3 + x^2 + 1
    0x211,    // x^9 + x^4 + 1
    0x409,    // x^10 + x^3 + 1
    0x805,    // x^11 + x^2 + 1
    0x1053,   // x^12 + x^6 + x^4 + x + 1
    0x201B,   // x^13 + x^4 + x^3 + x + 1
    0x4443,   // x^14 + x^10 + x^6 + x + 1
    0x8003,   // x^15 + x + 1
    0x1100B,  // x^16 + x^12 + x^3 + x + 1
};

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

uint32_t log2_exact(int64_t v, const char* key) {
  if (!is_pow2(v)) throw ConfigError(key, "must be a power of two, got " + std::to_string(v));
  return static_cast<uint32_t>(std::countr_zero(static_cast<uint64_t>(v)));
}

// Remainder of a GF(2) polynomial (bits of `value`, up to degree 127 via the
// shift) modulo `poly` of degree `deg`: long division, one bit at a time.
// Only used to build tables at construction.
uint32_t gf2_mod_shifted(uint64_t value, uint32_t shift, uint32_t poly, uint32_t deg) {
  // Reduce value * x^shift by walking its set bits from the top.
  uint32_t rem = 0;
  for (int bit = 63; bit >= 0; --bit) {
    rem <<= 1;
    if ((value >> bit) & 1) rem ^= 1;
    if ((rem >> deg) & 1) rem ^= poly;
  }
  for (uint32_t i = 0; i < shift; ++i) {
    rem <<= 1;
    if ((rem >> deg) & 1) rem ^= poly;
  }
  return rem;
}

}  // namespace

std::span<const char* const> partition_hash_names() { return kHashNames; }

PartitionHash partition_hash_from_name(const std::string& name) {
  for (size_t i = 0; i < kHashNames.size(); ++i)
    if (name == kHashNames[i]) return static_cast<PartitionHash>(i);
  std::string known;
  for (const char* n : kHashNames) known += std::string(known.empty() ? "" : ", ") + n;
  throw ConfigError("address_mapping", "unknown hashing '" + name + "'; known: " + known);
}

uint32_t ipoly_polynomial_for_degree(uint32_t degree) {
  if (degree == 0 || degree >= kIpolyPolys.size())
    throw ConfigError("address_mapping", "no IPOLY polynomial of degree " + std::to_string(degree));
  return kIpolyPolys[degree];
}

AddressMapParams AddressMapParams::from_config(const config::GpuConfig& cfg) {
  AddressMapParams p;
  p.partitions = cfg.memory_partitions;
  p.slices_per_partition = cfg.l2_slices_per_partition;
  p.interleave_bytes = cfg.l2_interleave;
  p.hashing = cfg.address_mapping;
  p.dram_banks = cfg.dram_banks;
  p.dram_bank_groups = cfg.dram_bank_groups;
  p.dram_row_bytes = cfg.dram_row_size;
  p.xor_bank_indexing = cfg.dram_xor_bank_indexing;
  return p;
}

AddressMap::AddressMap(const AddressMapParams& p) : hash_(partition_hash_from_name(p.hashing)) {
  if (p.partitions < 1 || p.slices_per_partition < 1)
    throw ConfigError("memory_partitions", "partitions and slices must be >= 1");
  units_ = static_cast<uint32_t>(p.partitions * p.slices_per_partition);
  slices_ = static_cast<uint32_t>(p.slices_per_partition);
  pow2_bits_ = static_cast<uint32_t>(std::countr_zero(units_));
  odd_ = units_ >> pow2_bits_;
  interleave_bits_ = log2_exact(p.interleave_bytes, "l2_interleave");
  row_bits_ = log2_exact(p.dram_row_bytes, "dram_row_size");
  bank_bits_ = log2_exact(p.dram_banks, "dram_banks");
  log2_exact(p.dram_bank_groups, "dram_bank_groups");
  if (p.dram_bank_groups > p.dram_banks)
    throw ConfigError("dram_bank_groups", "more bank groups than banks");
  bank_groups_ = static_cast<uint32_t>(p.dram_bank_groups);
  xor_banks_ = p.xor_bank_indexing;
  if (hash_ == PartitionHash::ipoly && pow2_bits_ > 0) build_ipoly_tables();
}

void AddressMap::build_ipoly_tables() {
  poly_ = ipoly_polynomial_for_degree(pow2_bits_);
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t v = 0; v < 256; ++v)
      ipoly_table_[k][v] = gf2_mod_shifted(v, pow2_bits_ + 8 * k, poly_, pow2_bits_);
}

// The contribution of the chunk bits above the low a bits to the low a bits
// of the slice index. Both hashes are linear over GF(2), so
// slice_lo = low_bits XOR high_hash(high), which is trivially invertible.
uint32_t AddressMap::high_hash(uint64_t high) const {
  if (pow2_bits_ == 0) return 0;
  if (hash_ == PartitionHash::xor_fold) {
    const uint64_t mask = (uint64_t{1} << pow2_bits_) - 1;
    uint64_t folded = 0;
    for (uint64_t h = high; h != 0; h >>= pow2_bits_) folded ^= h & mask;
    return static_cast<uint32_t>(folded);
  }
  uint32_t r = 0;
  for (uint32_t k = 0; k < 8 && high != 0; ++k, high >>= 8) r ^= ipoly_table_[k][high & 0xFF];
  return r;
}

uint32_t AddressMap::global_slice(uint64_t addr) const {
  const uint64_t chunk = addr >> interleave_bits_;
  if (hash_ == PartitionHash::linear) return static_cast<uint32_t>(chunk % units_);
  // U = 2^a * m: hash the power-of-two part, spread the odd part by modulo.
  const uint64_t low = chunk & ((uint64_t{1} << pow2_bits_) - 1);
  const uint64_t high = chunk >> pow2_bits_;
  const uint32_t lo = static_cast<uint32_t>(low) ^ high_hash(high);
  return lo + (static_cast<uint32_t>(high % odd_) << pow2_bits_);
}

DecodedAddress AddressMap::map(uint64_t addr) const {
  DecodedAddress d;
  const uint64_t chunk = addr >> interleave_bits_;
  d.global_slice = global_slice(addr);
  d.partition = d.global_slice / slices_;
  d.slice = d.global_slice % slices_;
  const uint64_t quotient = hash_ == PartitionHash::linear ? chunk / units_
                                                           : (chunk >> pow2_bits_) / odd_;
  const uint64_t local_chunk = quotient * slices_ + d.slice;
  const uint64_t offset = addr & ((uint64_t{1} << interleave_bits_) - 1);
  d.local = (local_chunk << interleave_bits_) | offset;
  decode_dram(d.local, d);
  return d;
}

void AddressMap::decode_dram(uint64_t local, DecodedAddress& d) const {
  d.column = static_cast<uint32_t>(local & ((uint64_t{1} << row_bits_) - 1));
  const uint64_t rest = local >> row_bits_;
  const uint32_t bank_mask = (uint32_t{1} << bank_bits_) - 1;
  d.row = rest >> bank_bits_;
  d.bank = static_cast<uint32_t>(rest) & bank_mask;
  // XOR bank indexing spreads rows that would share a bank (row-stride
  // conflicts) over all banks; still a bijection because the row is kept.
  if (xor_banks_) d.bank ^= static_cast<uint32_t>(d.row) & bank_mask;
  d.bank_group = d.bank % bank_groups_;
}

uint64_t AddressMap::unmap(const DecodedAddress& d) const {
  const uint64_t offset = d.local & ((uint64_t{1} << interleave_bits_) - 1);
  const uint64_t quotient = (d.local >> interleave_bits_) / slices_;
  uint64_t chunk;
  if (hash_ == PartitionHash::linear) {
    chunk = quotient * units_ + d.global_slice;
  } else {
    const uint64_t lo = d.global_slice & ((uint32_t{1} << pow2_bits_) - 1);
    const uint64_t high = quotient * odd_ + (d.global_slice >> pow2_bits_);
    chunk = (high << pow2_bits_) | (lo ^ high_hash(high));
  }
  return (chunk << interleave_bits_) | offset;
}

}  // namespace accelsim::mem
