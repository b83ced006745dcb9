// KernelTraceReader: the thread-block structure of a kernel trace and the
// checks the reference leaves to asserts (warps, insts counts, EXIT
// coverage, block count). Instruction lines go to InstDecoder.
#include <bit>
#include <cstdio>

#include "base/error.h"
#include "trace/inst_decoder.h"
#include "trace/kernel_header.h"
#include "base/line_source.h"
#include "base/tokenizer.h"
#include "trace/trace_reader.h"

namespace accelsim::trace {

namespace {

struct WarpState {
  uint32_t count = 0;
  uint32_t exited = 0;  // lanes that have executed EXIT
  int64_t last_line = 0;
  uint16_t last_opcode = 0;
};

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

}  // namespace

struct KernelTraceReader::Impl {
  LineSource src;
  HeaderLines where;
  KernelInfo info;
  const isa::IsaTable* isa;
  InstDecoder dec;
  bool old_layout;
  int exit_op;
  uint64_t blocks_read = 0;
  std::vector<isa::InstRecord> scratch;
  std::vector<WarpState> warps;
  int64_t begin_line = 0, insts_line = 0;
  uint64_t insts_expected = 0, insts_seen = 0;
  bool insts_open = false, coord_seen = false;
  int64_t current_warp = -1;
  bool broken = false;  // an error left the stream mid-block: rewind first
  TraceWarnings warnings;

  Impl(const std::string& path, const isa::IsaRegistry& registry)
      : src(path),
        info(read_kernel_header(src, where)),
        isa(&registry.for_version(info.binary_version, path, where.binary_version)),
        dec(info, *isa),
        old_layout(info.tracer_version < 3),
        exit_op(isa->exit_opcode()) {
    dec.report_to(&warnings);
  }

  [[noreturn]] void fail(int64_t line, const char* field, const std::string& detail) const {
    throw TraceError(info.path, line, field, detail);
  }
  std::string tb_name() const { return "thread block " + std::to_string(blocks_read); }

  bool seek_block_start();
  void start_block(ThreadBlockTrace& out);
  void directive(std::string_view first, Tokens& tok, ThreadBlockTrace& out);
  void instruction(std::string_view line, ThreadBlockTrace& out);
  void close_insts();
  void check_warps(int64_t end_line) const;
  void group_by_warp(ThreadBlockTrace& out);
  bool read_block(ThreadBlockTrace& out);
};

// Skips to the next "#BEGIN_TB"; false at a clean end of file.
bool KernelTraceReader::Impl::seek_block_start() {
  std::string_view line;
  while (src.next(line)) {
    std::string_view s = trim(line);
    if (s.empty()) continue;
    if (s.starts_with("#BEGIN_TB")) return true;
    if (s.front() == '#') continue;  // comments between blocks
    fail(src.line_number(), "#BEGIN_TB", "expected '#BEGIN_TB', got '" + printable(s) + "'");
  }
  if (blocks_read != info.grid.count())
    fail(where.grid, "grid dim",
         "the grid has " + std::to_string(info.grid.count()) + " thread blocks but the file ends after " +
             std::to_string(blocks_read) + (blocks_read ? " (truncated?)" : ""));
  return false;
}

void KernelTraceReader::Impl::start_block(ThreadBlockTrace& out) {
  if (blocks_read >= info.grid.count())
    fail(src.line_number(), "grid dim",
         "more thread blocks than the grid's " + std::to_string(info.grid.count()));
  out.index = uint32_t(blocks_read);
  out.coord = Dim3{0, 0, 0};
  out.insts.clear();
  out.addrs.clear();
  scratch.clear();
  warps.assign(info.warps_per_block(), WarpState{});
  begin_line = src.line_number();
  insts_open = coord_seen = false;
  current_warp = -1;
}

void KernelTraceReader::Impl::close_insts() {
  if (insts_open && insts_seen != insts_expected)
    fail(insts_line, "insts",
         "declares " + std::to_string(insts_expected) + " instructions but " + std::to_string(insts_seen) +
             " lines follow");
  insts_open = false;
}

// "thread block = x,y,z", "warp = N", "insts = M".
void KernelTraceReader::Impl::directive(std::string_view first, Tokens& tok, ThreadBlockTrace& out) {
  int64_t no = src.line_number();
  if (first == "thread") {
    std::string_view b = tok.next(), eq = tok.next(), xyz = trim(tok.rest());
    uint32_t c[3];
    size_t c1 = xyz.find(','), c2 = c1 == std::string_view::npos ? c1 : xyz.find(',', c1 + 1);
    if (b != "block" || eq != "=" || c2 == std::string_view::npos || !parse_u32(trim(xyz.substr(0, c1)), c[0]) ||
        !parse_u32(trim(xyz.substr(c1 + 1, c2 - c1 - 1)), c[1]) || !parse_u32(trim(xyz.substr(c2 + 1)), c[2]))
      fail(no, "thread block", "expected 'thread block = x,y,z'");
    out.coord = Dim3{c[0], c[1], c[2]};
    coord_seen = true;
    return;
  }
  close_insts();
  uint64_t n;
  std::string_view eq = tok.next(), value = tok.next();
  const char* field = first == "warp" ? "warp" : "insts";
  if (eq != "=" || !parse_u64(value, n) || !tok.done())
    fail(no, field, std::string("expected '") + field + " = <decimal>'");
  if (first == "warp") {
    if (n >= warps.size())
      fail(no, "warp", "warp " + std::to_string(n) + " does not exist: a block of " +
                           std::to_string(info.block.count()) + " threads has " +
                           std::to_string(warps.size()) + " warps");
    current_warp = int64_t(n);
  } else {
    insts_open = true;
    insts_line = no;
    insts_expected = n;
    insts_seen = 0;
  }
}

void KernelTraceReader::Impl::instruction(std::string_view line, ThreadBlockTrace& out) {
  int64_t no = src.line_number();
  if (!old_layout && current_warp < 0) fail(no, "warp", "instruction before any 'warp = N' line");
  isa::InstRecord& r = scratch.emplace_back();
  OldPrefix pre;
  dec.decode(line, no, r, out.addrs, old_layout ? &pre : nullptr);
  uint64_t w = uint64_t(current_warp);
  if (old_layout) {
    if (pre.warp >= warps.size())
      fail(no, "warpid_tb", "warp " + std::to_string(pre.warp) + " does not exist (block has " +
                                std::to_string(warps.size()) + " warps)");
    if (current_warp >= 0 && pre.warp != w)
      fail(no, "warpid_tb", "line is for warp " + std::to_string(pre.warp) + " but follows 'warp = " +
                                std::to_string(w) + "'");
    if (!coord_seen) {
      out.coord = pre.tb;
      coord_seen = true;
    } else if (pre.tb.x != out.coord.x || pre.tb.y != out.coord.y || pre.tb.z != out.coord.z) {
      fail(no, "threadblock_x", "line names another thread block than this block's");
    }
    w = pre.warp;
  }
  r.warp = uint8_t(w);
  if (insts_open) ++insts_seen;
  WarpState& ws = warps[w];
  ++ws.count;
  ws.last_line = no;
  ws.last_opcode = r.opcode;
  if (exit_op >= 0 && r.opcode == uint16_t(exit_op)) {
    // NVBit emits an EXIT whose mask repeats lanes that already exited
    // (e.g. after a predicated-off exit path): accepted, counted once per file.
    if ((r.active_mask & ws.exited) && warnings.exit_repeats++ == 0) warnings.exit_repeat_line = no;
    ws.exited |= r.active_mask;
  }
}

// Every warp ran, ended with EXIT, and its EXITs covered exactly its threads.
void KernelTraceReader::Impl::check_warps(int64_t end_line) const {
  uint64_t threads = info.block.count();
  for (size_t w = 0; w < warps.size(); ++w) {
    const WarpState& ws = warps[w];
    auto who = [&] { return "warp " + std::to_string(w) + " of " + tb_name(); };
    if (ws.count == 0) fail(end_line, "warp", who() + " has no instructions");
    if (exit_op < 0) continue;
    if (ws.last_opcode != uint16_t(exit_op))
      fail(ws.last_line, "EXIT", who() + " ends with " + isa->info(ws.last_opcode).name + ", not EXIT");
    uint64_t lanes = std::min<uint64_t>(32, threads - 32 * w);
    uint32_t expected = lanes >= 32 ? 0xffffffffu : uint32_t((1ull << lanes) - 1);
    if (ws.exited != expected)
      fail(ws.last_line, "EXIT",
           who() + ": EXITs cover lanes " + hex32(ws.exited) + " but its threads are " + hex32(expected));
  }
}

// Stable counting sort of the block's records by warp (the old layout may
// interleave warps; the new one may list them in any order).
void KernelTraceReader::Impl::group_by_warp(ThreadBlockTrace& out) {
  out.warp_begin.assign(warps.size() + 1, 0);
  for (size_t w = 0; w < warps.size(); ++w) out.warp_begin[w + 1] = out.warp_begin[w] + warps[w].count;
  out.insts.resize(scratch.size());
  std::vector<uint32_t>& next = out.warp_begin;  // use the begins as cursors, then restore
  for (const isa::InstRecord& r : scratch) out.insts[next[r.warp]++] = r;
  for (size_t w = warps.size(); w > 0; --w) next[w] = next[w - 1];
  next[0] = 0;
}

bool KernelTraceReader::Impl::read_block(ThreadBlockTrace& out) {
  if (!seek_block_start()) return false;
  start_block(out);
  std::string_view line;
  while (src.next(line)) {
    Tokens tok(line);
    std::string_view first = tok.next();
    if (first.empty()) continue;
    if (first == "#END_TB") {
      close_insts();
      check_warps(src.line_number());
      group_by_warp(out);
      ++blocks_read;
      return true;
    }
    if (first == "#BEGIN_TB")
      fail(src.line_number(), "#END_TB", tb_name() + " (begun at line " + std::to_string(begin_line) +
                                             ") has no '#END_TB'");
    if (first.front() == '#') continue;
    if (first == "thread" || first == "warp" || first == "insts") directive(first, tok, out);
    else instruction(line, out);
  }
  fail(src.line_number(), "#END_TB",
       "file ends inside " + tb_name() + " (begun at line " + std::to_string(begin_line) + "): truncated?");
}

KernelTraceReader::KernelTraceReader(const std::string& path, const isa::IsaRegistry& isa)
    : impl_(std::make_unique<Impl>(path, isa)) {}

KernelTraceReader::~KernelTraceReader() = default;

const KernelInfo& KernelTraceReader::info() const { return impl_->info; }
const isa::IsaTable& KernelTraceReader::isa() const { return *impl_->isa; }
const TraceWarnings& KernelTraceReader::warnings() const { return impl_->warnings; }

uint64_t KernelTraceReader::bytes_read() const { return impl_->src.offset(); }

std::string TraceWarnings::summary() const {
  std::string s;
  if (extra_field_lines)
    s += std::to_string(extra_field_lines) + " instruction lines carry fields after the immediate, "
         "ignored (first at line " + std::to_string(extra_field_line) + ": '" + extra_field + "')";
  if (exit_repeats)
    s += std::string(s.empty() ? "" : "; ") + std::to_string(exit_repeats) +
         " EXITs repeat lanes that had already exited, accepted (first at line " +
         std::to_string(exit_repeat_line) + ")";
  return s;
}

bool KernelTraceReader::next_block(ThreadBlockTrace& out) {
  Impl& m = *impl_;
  if (m.broken)
    throw TraceError(m.info.path, m.src.line_number(), "reader",
                     "an earlier error stopped this reader; rewind() to read again");
  try {
    return m.read_block(out);
  } catch (...) {
    m.broken = true;
    throw;
  }
}

void KernelTraceReader::rewind() {
  impl_->warnings = TraceWarnings{};  // counted again as the blocks are re-read
  Impl& m = *impl_;
  m.src.rewind();
  std::string_view line;
  while (m.src.line_number() < m.where.format && m.src.next(line)) {
  }
  m.blocks_read = 0;
  m.broken = false;
}

}  // namespace accelsim::trace
