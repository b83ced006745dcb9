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

namespace {

// The record of one SASS spelling ("!OP": guarded by @!PT, which no lane
// runs, e.g. Volta's prologue SHFL: issued with an empty mask), as a trace
// line with this spelling would be recorded.
isa::InstRecord sass_record(const Program& p, const isa::IsaTable& isa, const SassGuide& guide, const Inst& in,
                            const std::string& spelled) {
  const bool never = !spelled.empty() && spelled[0] == '!';
  const std::string op = never ? spelled.substr(1) : spelled;
  std::string_view base = std::string_view(op).substr(0, op.find('.'));
  int id = sass_opcode(isa, base);
  if (id < 0) throw PtxError(guide.source, in.line, 0, op, "SASS opcode not in the ISA table " + isa.name());
  const trace::OpcodeSpelling sp = trace::resolve_spelling(isa, uint16_t(id), op, p.binary_version);
  isa::InstRecord r{};
  r.opcode = sp.id;
  r.unit = sp.unit;
  r.lat_class = sp.lat_class;
  r.mem_space = sp.mem_space;
  r.flags = sp.flags;
  r.access_bytes = sp.access_bytes;
  if (never) r.flags |= isa::kFlagPredOff;
  return r;
}

// The SASS each execution of `in` records: a loop body's one copy, else its line's.
const std::vector<std::string>* sass_of(const SassGuide& guide, const Inst& in) {
  for (const SassLoop& l : guide.loops)
    if (auto it = l.body.find(in.line); it != l.body.end()) return &it->second;
  auto it = guide.by_line.find(in.line);
  return it == guide.by_line.end() ? nullptr : &it->second;
}

// Templates of a loop's control records (after the instructions'), each
// with its PTX line and that instruction's registers.
void control_templates(Program& p, const isa::IsaTable& isa, const SassGuide& guide,
                       const std::unordered_map<uint32_t, int32_t>& pc_of, const std::vector<SassLoop::Op>& ops) {
  uint32_t prev = 0;
  for (const auto& [line, spelled] : ops) {
    auto it = pc_of.find(line);
    if (it == pc_of.end())
      throw PtxError(guide.source, line, 0, spelled, "SASS loop control names a line with no PTX instruction");
    const Inst& in = p.insts[size_t(it->second)];
    isa::InstRecord r = sass_record(p, isa, guide, in, spelled);
    set_registers(in, line != prev, r);
    r.line = line;
    p.tmpl.push_back(r);
    prev = line;
  }
}

void loop_templates(Program& p, const isa::IsaTable& isa, const SassGuide& guide) {
  std::unordered_map<uint32_t, int32_t> pc_of;
  for (size_t i = p.insts.size(); i-- > 0;) pc_of[p.insts[i].line] = int32_t(i);  // a line's first instruction
  p.loop_of.assign(p.insts.size(), -1);
  for (const SassLoop& l : guide.loops) {
    auto first = pc_of.find(l.lines.front()), last = pc_of.find(l.lines.back());
    if (first == pc_of.end() || last == pc_of.end() || l.k < 2 || l.at_exit.size() != 2 * size_t(l.k))
      throw PtxError(guide.source, l.lines.front(), 0, "", "SASS loop does not match the kernel's PTX");
    Program::UnrolledLoop u;
    u.first_pc = first->second;
    u.last_pc = last->second;
    u.k = l.k;
    u.every_k_begin = uint32_t(p.tmpl.size());
    control_templates(p, isa, guide, pc_of, l.every_k);
    u.every_k_end = uint32_t(p.tmpl.size());
    for (const auto& ops : l.at_exit) {
      u.exit_begin.push_back(uint32_t(p.tmpl.size()));
      control_templates(p, isa, guide, pc_of, ops);
    }
    u.exit_begin.push_back(uint32_t(p.tmpl.size()));
    for (int32_t pc = u.first_pc; pc <= u.last_pc; ++pc) p.loop_of[size_t(pc)] = int16_t(p.loops.size());
    p.loops.push_back(std::move(u));
  }
}

}  // namespace

void apply_sass_guide(Program& p, const isa::IsaTable& isa, const SassGuide& guide) {
  std::vector<isa::InstRecord> tmpl;
  std::vector<uint32_t> begin{0};
  std::vector<int16_t> mem;
  for (size_t i = 0; i < p.insts.size(); ++i) {
    const Inst& in = p.insts[i];
    isa::InstRecord lowered_access{};  // the PTX access as the lowering table records it
    if (p.mem_tmpl[i] >= 0) lowered_access = p.tmpl[p.tmpl_begin[i] + uint32_t(p.mem_tmpl[i])];
    const size_t first = tmpl.size();
    if (const std::vector<std::string>* ops = sass_of(guide, in)) {
      for (const std::string& spelled : *ops) {
        isa::InstRecord r = sass_record(p, isa, guide, in, spelled);
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
  if (!guide.loops.empty()) loop_templates(p, isa, guide);
}

}  // namespace accelsim::ptx
