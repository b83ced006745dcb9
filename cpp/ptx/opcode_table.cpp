#include "ptx/opcode_table.h"

#include <fstream>
#include <sstream>

#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {
// Index = Op; "barrier" is an alias of bar (see op_from).
constexpr const char* kNames[] = {
    "mov", "ld", "ldu", "st", "cvta", "cvt", "add", "sub", "mul", "mad", "fma", "div", "rem", "abs",
    "neg", "min", "max", "and", "or", "xor", "not", "cnot", "shl", "shr", "setp", "selp", "slct",
    "bra", "ret", "exit", "bar", "membar", "fence", "atom", "red", "shfl", "vote", "activemask",
    "sqrt", "rsqrt", "rcp", "sin", "cos", "ex2", "lg2", "popc", "clz", "brev", "bfe", "bfi", "prmt",
    "call", "tex", "copysign", "testp", "mul24", "mad24", "lop3", "prefetch", "nanosleep",
    "addc", "subc", "madc", "trap"};
static_assert(std::size(kNames) == size_t(Op::kCount));
}  // namespace

const char* op_name(Op op) { return kNames[size_t(op)]; }

bool op_from(std::string_view name, Op& op) {
  if (name == "barrier") name = "bar";
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) {
      op = Op(i);
      return true;
    }
  return false;
}

OpcodeTable OpcodeTable::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PtxError(path, 0, 0, "", "cannot open the PTX opcode table");
  OpcodeTable t;
  t.path_ = path;
  std::string line;
  int64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ss(line);
    std::string name;
    int lo = -1, hi = -1;
    if (!(ss >> name)) continue;
    if (!(ss >> lo >> hi) || lo < 0 || hi < lo || hi > 8)
      throw PtxError(path, n, 0, name, "expected 'opcode min_operands max_operands modifier...'");
    OpcodeRow row;
    if (!op_from(name, row.op)) throw PtxError(path, n, 0, name, "opcode has no emulation semantics");
    row.min_ops = uint8_t(lo);
    row.max_ops = uint8_t(hi);
    for (std::string m; ss >> m;) {
      row.typed |= ty_from(m) != kTyNone;
      row.mods.insert(m);
    }
    t.rows_[name] = std::move(row);
  }
  return t;
}

const OpcodeRow* OpcodeTable::find(std::string_view opcode) const {
  auto it = rows_.find(std::string(opcode));
  return it == rows_.end() ? nullptr : &it->second;
}

}  // namespace accelsim::ptx
