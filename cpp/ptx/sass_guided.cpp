#include "ptx/sass_guided.h"

#include <algorithm>

#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "trace/inst_decoder.h"

namespace accelsim::ptx {

namespace {

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
      for (const std::string& spelled : it->second) {
        // "!OP": guarded by @!PT, which no lane runs (Volta's prologue SHFL): issued with an empty mask
        const bool never = !spelled.empty() && spelled[0] == '!';
        const std::string op = never ? spelled.substr(1) : spelled;
        std::string_view base = std::string_view(op).substr(0, op.find('.'));
        int id = sass_opcode(isa, base);
        if (id < 0)
          throw PtxError(guide.source, in.line, 0, op, "SASS opcode not in the ISA table " + isa.name());
        // as a trace line with this spelling would be recorded
        const trace::OpcodeSpelling sp = trace::resolve_spelling(isa, uint16_t(id), op, p.binary_version);
        isa::InstRecord r{};
        r.opcode = sp.id;
        r.unit = sp.unit;
        r.lat_class = sp.lat_class;
        r.mem_space = sp.mem_space;
        r.flags = sp.flags;
        r.access_bytes = sp.access_bytes;
        if (never) r.flags |= isa::kFlagPredOff;
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
