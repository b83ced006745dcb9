#include "ptx/ptx_records.h"

#include <iterator>

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

// The record class of each opcode (ptx/opcodes.def).
enum class RecordClass : uint8_t {
  Memory, KeepSass, Return, AddByType, MinMaxByType, MulByType, MadByType, Mul24, Mad24, Divide, Sfu, Shfl, Tensor,
  Alu
};
constexpr RecordClass kClassOf[] = {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) RecordClass::record_class,
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
};
static_assert(std::size(kClassOf) == size_t(Op::kCount));

bool is_memory(Op op) { return kClassOf[size_t(op)] == RecordClass::Memory; }

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
  switch (kClassOf[size_t(in.op)]) {
    case RecordClass::Memory: case RecordClass::KeepSass:
      return {true};
    case RecordClass::Return:  // the kernel's ret is its EXIT; a .func's returns like a branch
      return (in.mods & kMInFunc) ? PtxClass{} : PtxClass{true};
    case RecordClass::AddByType: return by_type(in.type, 0);
    case RecordClass::MinMaxByType: return by_type(in.type, 1);
    case RecordClass::MulByType: return by_type(in.type, 2);
    case RecordClass::MadByType: return by_type(in.type, 3);
    case RecordClass::Mul24: return {false, isa::kUnitInt, isa::kLatIntMul24};
    case RecordClass::Mad24: return {false, isa::kUnitInt, isa::kLatIntMad24};
    case RecordClass::Divide:  // on the SFU whatever the type; the cycles follow the type
      return {false, isa::kUnitSfu,
              uint8_t(in.type == kF32 ? isa::kLatFpDiv : in.type == kF64 ? isa::kLatDpDiv : isa::kLatIntDiv)};
    case RecordClass::Sfu: return {false, isa::kUnitSfu, isa::kLatSfu};
    case RecordClass::Shfl: return {false, isa::kUnitInt, isa::kLatIntShfl};
    case RecordClass::Tensor: return {false, isa::kUnitTensor, isa::kLatTensor};
    case RecordClass::Alu: break;
  }
  return {};  // ALU: 1 cycle on the INT unit
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
