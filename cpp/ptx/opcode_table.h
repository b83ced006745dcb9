// The PTX opcodes the parser accepts and, per opcode, its operand count and
// allowed modifiers: data from configs/ptx/opcodes.txt, so a new spelling is
// a table row, not a grammar change. Read at parse time only.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "ptx/module.h"

namespace accelsim::ptx {

struct OpcodeRow {
  Op op = Op::kMov;
  uint8_t min_ops = 0, max_ops = 0;
  bool typed = false;  // takes a type modifier (.u32, .f32, ...): one is then required
  std::unordered_set<std::string> mods;
};

class OpcodeTable {
 public:
  // Throws PtxError naming the table file and line.
  static OpcodeTable load(const std::string& path);
  const OpcodeRow* find(std::string_view opcode) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unordered_map<std::string, OpcodeRow> rows_;
};

// Opcode name of an Op ("add"), and the Op of a name (false if none).
const char* op_name(Op op);
bool op_from(std::string_view name, Op& op);

}  // namespace accelsim::ptx
