#include "trace/inst_decoder.h"

#include <bit>

#include "base/error.h"
#include "base/tokenizer.h"
#include "isa/sass_latency.h"

namespace accelsim::trace {

namespace {

constexpr uint64_t kGenericWindowBytes = 32ull << 20;  // spacing of the NVBit windows

// Yields the '.'-separated parts of an opcode spelling after the mnemonic.
bool next_modifier(std::string_view& rest, std::string_view& mod) {
  if (rest.empty()) return false;
  size_t dot = rest.find('.');
  mod = rest.substr(0, dot);
  rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  return true;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string quoted(std::string_view s) {
  if (s.empty()) return "nothing (line ends early)";
  std::string q(1, '\'');  // appended, not "'" + ...: GCC 12 mis-warns (-Wrestrict) on that
  return (q += printable(s)) += '\'';
}

}  // namespace

uint8_t access_bytes_from_modifiers(std::string_view opcode) {
  size_t dot = opcode.find('.');
  std::string_view rest = dot == std::string_view::npos ? std::string_view() : opcode.substr(dot + 1);
  std::string_view mod;
  while (next_modifier(rest, mod)) {
    if (all_digits(mod)) {
      if (mod == "8") return 1;
      if (mod == "16") return 2;
      if (mod == "32") return 4;
      if (mod == "64") return 8;
      if (mod == "128") return 16;
    }
    if (mod == "U8" || mod == "S8") return 1;
    if (mod == "U16" || mod == "S16") return 2;
  }
  return 4;
}

OpcodeSpelling resolve_spelling(const isa::IsaTable& isa, uint16_t id, std::string_view op,
                                uint32_t binary_version) {
  const isa::OpcodeInfo& row = isa.info(id);
  OpcodeSpelling s;
  s.id = id;
  s.unit = row.unit;
  s.mem_space = row.mem_space;
  s.flags = row.flags;
  if (row.mem_space != isa::kMemNone)
    s.access_bytes = row.mem_space == isa::kMemConst ? 4 : access_bytes_from_modifiers(op);
  bool strong = false, gpu = false, cg = false, read_only = false;
  const std::string_view base = op.substr(0, op.find('.'));
  std::string_view rest = op.substr(base.size()), mod;
  if (!rest.empty()) rest.remove_prefix(1);
  s.lat_class = isa::sass_lat_class(base, rest);
  while (next_modifier(rest, mod)) {
    strong |= mod == "STRONG";
    gpu |= mod == "GPU";
    cg |= mod == "CG";
    read_only |= mod == "CI" || mod == "NC" || mod == "CONSTANT";
  }
  if ((s.flags & isa::kFlagLoad) && ((strong && gpu) || cg)) s.flags |= isa::kFlagBypassL1;
  // The read-only (texture) data path: non-coherent loads (__ldg, .nc), and
  // every LDG on Kepler, where LDG exists only for that path (LD is the
  // ordinary global load).
  if ((s.flags & isa::kFlagLoad) && row.mem_space == isa::kMemGlobal &&
      (read_only || (base == "LDG" && binary_version < 50)))
    s.flags |= isa::kFlagReadOnly;
  return s;
}

uint8_t classify_generic(uint64_t addr, uint64_t shmem_base, uint64_t local_base) {
  if (shmem_base == 0 || local_base == 0) return isa::kMemShared;
  if (addr >= shmem_base && addr - shmem_base < kGenericWindowBytes) return isa::kMemShared;
  if (addr >= local_base && addr - local_base < kGenericWindowBytes) return isa::kMemLocal;
  return isa::kMemGlobal;
}

InstDecoder::InstDecoder(const KernelInfo& info, const isa::IsaTable& isa) : info_(info), isa_(isa) {}

void InstDecoder::fail(int64_t line_no, const char* field, const std::string& detail) const {
  throw TraceError(info_.path, line_no, field, detail);
}

const OpcodeSpelling& InstDecoder::spelling(std::string_view op, int64_t line_no) {
  uint64_t h = SpellingCache::hash(op);
  if (const OpcodeSpelling* hit = cache_.find(op, h)) return *hit;
  std::string_view base = op.substr(0, op.find('.'));
  int id = isa_.find(base);
  if (id < 0)
    fail(line_no, "opcode",
         "undefined opcode '" + printable(base) + "' (not in ISA table " + isa_.path() + ")");
  return cache_.insert(op, h, resolve_spelling(isa_, uint16_t(id), op, info_.binary_version));
}

namespace {

// "R<n>" (n <= 255) or "RZ" -> register number + 1.
bool parse_register(std::string_view t, uint16_t& out) {
  if (t == "RZ") {
    out = 256;
    return true;
  }
  uint32_t n;
  if (t.size() < 2 || t[0] != 'R' || !parse_u32(t.substr(1), n) || n > 255) return false;
  out = uint16_t(n + 1);
  return true;
}

}  // namespace

// The old trace format's per-line prefix: the thread block and warp.
void InstDecoder::read_prefix(Tokens& tok, int64_t line_no, OldPrefix& prefix) {
  static const char* const names[4] = {"threadblock_x", "threadblock_y", "threadblock_z", "warpid_tb"};
  uint32_t v[4];
  std::string_view t;
  for (int i = 0; i < 4; ++i)
    if (!parse_u32(t = tok.next(), v[i])) fail(line_no, names[i], "expected a decimal number, got " + quoted(t));
  prefix.tb = Dim3{v[0], v[1], v[2]};
  prefix.warp = v[3];
}

// Source line (with lineinfo), PC, active mask and the destination register.
void InstDecoder::read_head(Tokens& tok, int64_t line_no, isa::InstRecord& out) {
  std::string_view t;
  if (info_.lineinfo && !parse_u32(t = tok.next(), out.line))
    fail(line_no, "line_num", "expected a decimal source line number, got " + quoted(t));
  uint64_t v;
  if (!parse_hex(t = tok.next(), v) || v > UINT32_MAX) fail(line_no, "PC", "expected a hex PC, got " + quoted(t));
  out.pc = uint32_t(v);
  if (!parse_hex(t = tok.next(), v) || v > UINT32_MAX)
    fail(line_no, "mask", "expected a 32-bit hex active mask, got " + quoted(t));
  out.active_mask = uint32_t(v);
  uint32_t ndst;
  if (!parse_u32(t = tok.next(), ndst)) fail(line_no, "dest_num", "expected a decimal count, got " + quoted(t));
  if (ndst > 1) fail(line_no, "dest_num", "at most 1 destination register, got " + std::to_string(ndst));
  if (ndst == 1 && !parse_register(t = tok.next(), out.dst))
    fail(line_no, "reg_dests", "expected a register R0..R255, got " + quoted(t));
}

// The opcode (resolved through the ISA table) and the source registers.
void InstDecoder::read_opcode_and_sources(Tokens& tok, int64_t line_no, isa::InstRecord& out) {
  std::string_view t = tok.next();
  if (t.empty()) fail(line_no, "opcode", "line ends before the opcode");
  const OpcodeSpelling& op = spelling(t, line_no);
  out.opcode = op.id;
  out.unit = op.unit;
  out.mem_space = op.mem_space;
  out.access_bytes = op.access_bytes;
  out.flags = op.flags;
  out.lat_class = op.lat_class;
  uint32_t nsrc;
  if (!parse_u32(t = tok.next(), nsrc)) fail(line_no, "src_num", "expected a decimal count, got " + quoted(t));
  if (nsrc > 4) fail(line_no, "src_num", "at most 4 source registers, got " + std::to_string(nsrc));
  out.nsrc = uint8_t(nsrc);
  for (uint32_t i = 0; i < nsrc; ++i)
    if (!parse_register(t = tok.next(), out.src[i]))
      fail(line_no, "reg_srcs", "expected " + std::to_string(nsrc) + " registers R0..R255, got " + quoted(t));
}

// The immediate, if any. Fields after it come from other tracer versions and
// forks: the line is read, and counted once per file.
void InstDecoder::read_immediate(Tokens& tok, int64_t line_no, isa::InstRecord& out) {
  std::string_view t = tok.next();
  if (t.empty()) return;
  int64_t imm;
  if (!parse_i64(t, imm)) fail(line_no, "immediate", "expected a decimal immediate, got " + quoted(t));
  out.imm = int32_t(imm);
  if (tok.done()) return;
  if (!warnings_) fail(line_no, "immediate", "unexpected extra token " + quoted(tok.next()) + " at end of line");
  if (warnings_->extra_field_lines++ == 0) {
    warnings_->extra_field_line = line_no;
    warnings_->extra_field = std::string(tok.next());
  }
}

void InstDecoder::decode(std::string_view line, int64_t line_no, isa::InstRecord& out,
                         std::vector<uint64_t>& addrs, OldPrefix* prefix) {
  Tokens tok(line);
  out = isa::InstRecord{};
  if (prefix) read_prefix(tok, line_no, *prefix);
  read_head(tok, line_no, out);
  read_opcode_and_sources(tok, line_no, out);
  std::string_view t;
  uint32_t width;
  if (!parse_u32(t = tok.next(), width)) fail(line_no, "mem_width", "expected a decimal width, got " + quoted(t));
  if (width > 0) decode_addresses(tok, line_no, out, addrs);
  if (out.active_mask == 0) out.flags |= isa::kFlagPredOff;
  if (out.mem_space == isa::kMemGeneric)
    out.mem_space = (out.flags & isa::kFlagHasAddrs)
                        ? classify_generic(addrs[out.addr_offset + std::countr_zero(out.active_mask)],
                                           info_.shmem_base, info_.local_base)
                        : uint8_t(isa::kMemGlobal);
  read_immediate(tok, line_no, out);
}

}  // namespace accelsim::trace
