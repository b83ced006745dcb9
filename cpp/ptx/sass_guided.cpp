#include "ptx/sass_guided.h"

#include <algorithm>

#include "ptx/program.h"
#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {

// Per-thread bytes a SASS memory spelling moves (LDG.E.64 -> 8, LDS.U8 -> 1).
uint8_t spelled_bytes(std::string_view op) {
  for (size_t d = op.find('.'); d != std::string_view::npos;) {
    size_t nd = op.find('.', d + 1);
    std::string_view m = op.substr(d + 1, nd == std::string_view::npos ? nd : nd - d - 1);
    if (m == "64") return 8;
    if (m == "128") return 16;
    if (m == "U8" || m == "S8") return 1;
    if (m == "U16" || m == "S16") return 2;
    d = nd;
  }
  return 4;
}

bool has_modifier(std::string_view op, std::string_view mod) {
  for (size_t d = op.find('.'); d != std::string_view::npos;) {
    size_t nd = op.find('.', d + 1);
    if (op.substr(d + 1, nd == std::string_view::npos ? nd : nd - d - 1) == mod) return true;
    d = nd;
  }
  return false;
}

// Which of an instruction's SASS carries the PTX access: the first in the
// lowered access's memory space, else the first non-constant memory SASS.
int16_t pick_access(const std::vector<isa::InstRecord>& recs, size_t begin, uint8_t space) {
  if (space == isa::kMemNone) return -1;
  for (size_t k = begin; k < recs.size(); ++k)
    if (recs[k].mem_space == space) return int16_t(k - begin);
  for (size_t k = begin; k < recs.size(); ++k)
    if (recs[k].mem_space != isa::kMemNone && recs[k].mem_space != isa::kMemConst) return int16_t(k - begin);
  return -1;
}

}  // namespace

int sass_opcode(const isa::IsaTable& isa, std::string_view m) {
  if (int id = isa.find(m); id >= 0) return id;
  if (m == "S2UR") return isa.find("S2R");
  if (m == "R2UR") return isa.find("MOV");
  if (m == "VOTEU") return isa.find("VOTE");
  if (m.size() > 1 && m[0] == 'U') return isa.find(m.substr(1));
  return -1;
}

void apply_sass_guide(Program& p, const isa::IsaTable& isa, const SassGuide& guide) {
  std::vector<isa::InstRecord> tmpl;
  std::vector<uint32_t> begin{0};
  std::vector<int16_t> mem;
  for (size_t i = 0; i < p.insts.size(); ++i) {
    const Inst& in = p.insts[i];
    isa::InstRecord lowered_access{};  // the PTX access as the lowering table records it
    if (p.mem_tmpl[i] >= 0) lowered_access = p.tmpl[p.tmpl_begin[i] + uint32_t(p.mem_tmpl[i])];
    const size_t first = tmpl.size();
    if (auto it = guide.by_line.find(in.line); it != guide.by_line.end()) {
      for (const std::string& op : it->second) {
        std::string_view base = std::string_view(op).substr(0, op.find('.'));
        int id = sass_opcode(isa, base);
        if (id < 0)
          throw PtxError(guide.source, in.line, 0, op, "SASS opcode not in the ISA table " + isa.name());
        const isa::OpcodeInfo& info = isa.info(uint16_t(id));
        isa::InstRecord r{};
        r.opcode = uint16_t(id);
        r.unit = info.unit;
        r.mem_space = info.mem_space;
        r.flags = info.flags;
        if (info.mem_space != isa::kMemNone) {
          r.access_bytes = info.mem_space == isa::kMemConst ? 4 : spelled_bytes(op);
          bool strong_gpu = has_modifier(op, "STRONG") && has_modifier(op, "GPU");
          if ((info.flags & isa::kFlagLoad) && (strong_gpu || has_modifier(op, "CG"))) r.flags |= isa::kFlagBypassL1;
          if ((info.flags & isa::kFlagLoad) && (has_modifier(op, "CONSTANT") || has_modifier(op, "NC")))
            r.flags |= isa::kFlagReadOnly;
        }
        set_registers(in, tmpl.size() == first, r);
        tmpl.push_back(r);
      }
    }
    int16_t m = pick_access(tmpl, first, lowered_access.mem_space);
    if (m >= 0) {  // it carries the PTX access: its size and cache hints
      isa::InstRecord& r = tmpl[first + size_t(m)];
      r.access_bytes = lowered_access.access_bytes;
      r.flags |= lowered_access.flags & (isa::kFlagBypassL1 | isa::kFlagReadOnly);
    }
    mem.push_back(m);
    begin.push_back(uint32_t(tmpl.size()));
  }
  p.tmpl = std::move(tmpl);
  p.tmpl_begin = std::move(begin);
  p.mem_tmpl = std::move(mem);
}

}  // namespace accelsim::ptx
