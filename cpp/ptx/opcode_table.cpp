#include "ptx/opcode_table.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ptx/ptx_error.h"

namespace accelsim::ptx {

namespace {
// Index = Op; "barrier" is an alias of bar (see op_from).
constexpr const char* kNames[] = {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) name,
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
};
static_assert(std::size(kNames) == size_t(Op::kCount));

constexpr OperandGrammar kGrammars[] = {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) OperandGrammar::parse(operands),
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
};
}  // namespace

const char* op_name(Op op) { return kNames[size_t(op)]; }
const OperandGrammar& op_grammar(Op op) { return kGrammars[size_t(op)]; }

bool op_from(std::string_view name, Op& op) {
  std::string alias;
  if (name.substr(0, name.find('.')) == "barrier") name = alias.append("bar").append(name.substr(7));
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
    if (!(ss >> name)) continue;
    OpcodeRow row;
    if (!op_from(name, row.op)) throw PtxError(path, n, 0, name, "opcode has no emulation semantics");
    for (std::string m; ss >> m;) {
      // operand counts come from the opcode's grammar (ptx/opcodes.def), not this file
      if (m.find_first_not_of("0123456789") == std::string::npos)
        throw PtxError(path, n, 0, m, "expected 'opcode modifier...' (a modifier is a name)");
      row.typed |= ty_from(m) != kTyNone;
      row.mods.insert(m);
    }
    for (size_t dot = name.find('.'); dot != std::string::npos;) {
      const size_t nd = name.find('.', dot + 1);
      row.variant.push_back(name.substr(dot + 1, nd == std::string::npos ? nd : nd - dot - 1));
      row.mods.insert(row.variant.back());
      dot = nd;
    }
    t.rows_[name] = std::move(row);
  }
  for (const auto& [name, row] : t.rows_)
    if (!row.variant.empty()) t.variants_[name.substr(0, name.find('.'))].push_back(name);
  for (auto& [op, names] : t.variants_) std::sort(names.begin(), names.end());  // ties: the same pick every run
  return t;
}

const OpcodeRow* OpcodeTable::find(std::string_view name) const {
  auto it = rows_.find(std::string(name));
  return it == rows_.end() ? nullptr : &it->second;
}

const OpcodeRow* OpcodeTable::find(std::string_view opcode, const std::vector<std::string_view>& mods) const {
  const OpcodeRow* best = find(opcode);
  size_t best_n = 0;
  if (auto it = variants_.find(std::string(opcode)); it != variants_.end())
    for (const std::string& name : it->second) {
      const OpcodeRow* row = &rows_.at(name);
      bool all = true;
      for (const std::string& v : row->variant) all &= std::find(mods.begin(), mods.end(), v) != mods.end();
      if (all && row->variant.size() > best_n) best = row, best_n = row->variant.size();
    }
  return best;
}

}  // namespace accelsim::ptx
