// Decoding of one instruction line into an isa::InstRecord (+ lane addresses).
// Opcode spellings ("LDG.E.64.SYS") are resolved once and cached, so the per
// line cost is tokenizing and number parsing only.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/inst_record.h"
#include "isa/isa_table.h"
#include "trace/spelling_cache.h"
#include "base/tokenizer.h"
#include "trace/trace_reader.h"

namespace accelsim::trace {


// The old layout's per-line prefix "tb_x tb_y tb_z warp".
struct OldPrefix {
  Dim3 tb;
  uint32_t warp = 0;
};

// Per-thread access size from the modifiers: .8/.16/.32/.64/.128 bits, U8/S8,
// U16/S16, else 4 bytes (as the tracer and the reference derive it).
uint8_t access_bytes_from_modifiers(std::string_view opcode);

// ISA opcode `id` as spelled `op` ("LDG.E.64.STRONG.GPU"): its unit, memory
// space and flags from the table, the access size from the modifiers, loads
// marked to bypass L1 (STRONG.GPU, CG) or to take the read-only path (CI, NC,
// CONSTANT; every LDG before sm_50). Trace lines and SASS-guided PTX records
// both resolve spellings here.
OpcodeSpelling resolve_spelling(const isa::IsaTable& isa, uint16_t id, std::string_view op,
                                uint32_t binary_version);

// Generic LD/ST: which window the address falls in. Bases of 0 mean the
// tracer did not record them; the reference then calls the access shared.
uint8_t classify_generic(uint64_t addr, uint64_t shmem_base, uint64_t local_base);

class InstDecoder {
 public:
  InstDecoder(const KernelInfo& info, const isa::IsaTable& isa);
  // Decodes `line` (number `line_no`). A memory instruction with active lanes
  // appends 32 lane addresses to `addrs` (inactive lanes 0). In the old layout
  // the line's prefix goes to `*prefix`. Throws TraceError on any bad field.
  void decode(std::string_view line, int64_t line_no, isa::InstRecord& out,
              std::vector<uint64_t>& addrs, OldPrefix* prefix);
  // Lines read with extra trailing fields are counted here (set by the reader).
  void report_to(TraceWarnings* w) { warnings_ = w; }

 private:
  const KernelInfo& info_;
  const isa::IsaTable& isa_;
  SpellingCache cache_;
  TraceWarnings* warnings_ = nullptr;

  const OpcodeSpelling& spelling(std::string_view op, int64_t line_no);
  void read_prefix(Tokens& tok, int64_t line_no, OldPrefix& prefix);
  void read_head(Tokens& tok, int64_t line_no, isa::InstRecord& out);
  void read_opcode_and_sources(Tokens& tok, int64_t line_no, isa::InstRecord& out);
  void read_immediate(Tokens& tok, int64_t line_no, isa::InstRecord& out);
  void decode_addresses(Tokens& tok, int64_t line_no, isa::InstRecord& out, std::vector<uint64_t>& addrs);
  // The three address modes: one hex address per active lane, base + stride,
  // base + per-lane deltas. Each fills `lane` (32 slots) and checks every
  // address against `last_start` (the highest start an access of `bytes` may have).
  struct LaneAddresses {
    uint32_t mask;
    uint64_t* lane;
    uint64_t last_start;
    uint32_t bytes;
  };
  void addresses_listed(Tokens& tok, int64_t line_no, const LaneAddresses& to);
  void addresses_strided(Tokens& tok, int64_t line_no, const LaneAddresses& to);
  void addresses_deltas(Tokens& tok, int64_t line_no, const LaneAddresses& to);
  // TraceError: [addr, addr + bytes) leaves the address space
  // (trace/address_space.h); `addr` is exact, never wrapped.
  __extension__ typedef __int128 Wide;
  [[noreturn]] void bad_address(int64_t line_no, Wide addr, int lane, uint32_t bytes) const;
  [[noreturn]] void fail(int64_t line_no, const char* field, const std::string& detail) const;
};

}  // namespace accelsim::trace
