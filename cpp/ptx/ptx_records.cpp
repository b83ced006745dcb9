#include "ptx/ptx_records.h"

#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {

// add (0), min/max (1), mul (2), mad (3) by operand type: f32 on the SP unit,
// f64 on the DP unit, everything else on the INT unit.
PtxClass by_type(Ty t, int k) {
  if (t == kF32) return {false, isa::kUnitSp, uint8_t(isa::kLatFpAdd + k)};
  if (t == kF64) return {false, isa::kUnitDp, uint8_t(isa::kLatDpAdd + k)};
  return {false, isa::kUnitInt, uint8_t(isa::kLatIntAdd + k)};
}

bool is_memory(Op op) {
  return op == Op::kLd || op == Op::kLdu || op == Op::kSt || op == Op::kAtom || op == Op::kRed || op == Op::kTex;
}

// The SASS opcode a record of `in` is named after.
uint16_t record_opcode(const Inst& in, const Program& p, const isa::IsaTable& isa, const LoweringTable& lowering) {
  const LoweringTable::Row& row = lowering_row(lowering, in);
  auto named = [&](const char* name) {
    int id = isa.find(name);
    if (id < 0) throw PtxError(lowering.path(), row.line, 0, name, "SASS opcode not in the ISA table " + isa.name());
    return uint16_t(id);
  };
  if (row.sass.empty()) {
    if (in.op == Op::kSt) return named("STL");  // st.param: a call's argument slot
    if (in.op == Op::kLd || in.op == Op::kLdu) {
      const Operand& a = in.ops[1];
      bool slot = a.sym >= 0 && p.syms[size_t(a.sym)].scratch;
      return named(slot ? "LDL" : "LDC");
    }
    return named("MOV");  // cvta: an address add, one ALU operation
  }
  int first = -1;
  for (const auto& alts : row.sass) {
    int id = sass_opcode(isa, lowering, row, alts);
    if (first < 0) first = id;
    if (is_memory(in.op) && isa.info(uint16_t(id)).mem_space != isa::kMemNone) return uint16_t(id);
  }
  return uint16_t(first);
}

}  // namespace

PtxClass ptx_class(const Inst& in) {
  switch (in.op) {
    case Op::kLd: case Op::kLdu: case Op::kSt: case Op::kAtom: case Op::kRed: case Op::kTex:
    case Op::kBar: case Op::kExit: case Op::kMembar: case Op::kFence: case Op::kPrefetch: case Op::kNanosleep:
    case Op::kTrap:
      return {true};
    case Op::kRet:  // the kernel's ret is its EXIT; a .func's returns like a branch
      return (in.mods & kMInFunc) ? PtxClass{} : PtxClass{true};
    case Op::kAdd: case Op::kSub: case Op::kAddc: case Op::kSubc:
      return by_type(in.type, 0);
    case Op::kMin: case Op::kMax:
      return by_type(in.type, 1);
    case Op::kMul:
      return by_type(in.type, 2);
    case Op::kMad: case Op::kMadc: case Op::kFma:
      return by_type(in.type, 3);
    case Op::kMul24:
      return {false, isa::kUnitInt, isa::kLatIntMul24};
    case Op::kMad24:
      return {false, isa::kUnitInt, isa::kLatIntMad24};
    case Op::kDiv: case Op::kRem:  // on the SFU whatever the type; the cycles follow the type
      return {false, isa::kUnitSfu,
              uint8_t(in.type == kF32 ? isa::kLatFpDiv : in.type == kF64 ? isa::kLatDpDiv : isa::kLatIntDiv)};
    case Op::kSqrt: case Op::kRsqrt: case Op::kRcp: case Op::kSin: case Op::kCos: case Op::kEx2: case Op::kLg2:
      return {false, isa::kUnitSfu, isa::kLatSfu};
    case Op::kShfl:
      return {false, isa::kUnitInt, isa::kLatIntShfl};
    default:
      return {};  // ALU: 1 cycle on the INT unit
  }
}

void ptx_class_templates(Program& p, const isa::IsaTable& isa, const LoweringTable& lowering) {
  p.tmpl.clear();
  p.mem_tmpl.clear();
  p.tmpl_begin.assign(1, 0);
  for (const Inst& in : p.insts) {
    isa::InstRecord r = operand_record(in, isa, record_opcode(in, p, isa, lowering), true);
    PtxClass c = ptx_class(in);
    if (!c.keep_sass) {
      r.unit = c.unit;
      r.lat_class = c.lat;
    }
    p.mem_tmpl.push_back(r.mem_space != isa::kMemNone ? 0 : -1);
    p.tmpl.push_back(r);
    p.tmpl_begin.push_back(uint32_t(p.tmpl.size()));
  }
}

}  // namespace accelsim::ptx
