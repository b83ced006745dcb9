// The PTX opcodes the parser accepts: per opcode (ptx/opcodes.def) its name
// and operand grammar, and from configs/ptx/opcodes.txt the modifiers it
// allows, so a new spelling is a data word, not a grammar change. Read at
// parse time only.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/module.h"

namespace accelsim::ptx {

// An opcode's operands, one letter per position (opcodes.def's last column):
//   d  destination register            D  destination register or vector
//   s  source: register, immediate, special register or variable
//   u  a source read as .u32 whatever the type (shift amount, bit position,
//      selector): an immediate there is encoded as .u32
//   S  source or vector                a  address [..]
//   V  vector {..} (up to 8 registers: mma / wmma fragments)
//   t  texture operand [tex, {coordinates}]
//   l  label                           *  anything (the executor checks it)
// "[x]" is an optional operand (optional ones come last). A leading '='
// says register operands must have the instruction type's size.
struct OperandGrammar {
  static constexpr int kMax = 6;
  uint8_t min_ops = 0, max_ops = 0;
  bool sized = false;
  char kind[kMax] = {};

  static consteval OperandGrammar parse(std::string_view s) {
    OperandGrammar g;
    bool optional = false;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == ' ') continue;
      if (c == '=' && i == 0) {
        g.sized = true;
        continue;
      }
      const bool opt = c == '[';
      if (opt) {
        if (i + 2 >= s.size() || s[i + 2] != ']') throw "opcodes.def: '[' takes one letter and ']'";
        c = s[++i], ++i;
      }
      if (std::string_view("dDsuSatl*V").find(c) == std::string_view::npos) throw "opcodes.def: unknown operand letter";
      if (!opt && optional) throw "opcodes.def: an optional operand comes last";
      if (g.max_ops == kMax) throw "opcodes.def: too many operands";
      optional |= opt;
      g.kind[g.max_ops++] = c;
      if (!opt) g.min_ops = g.max_ops;
    }
    return g;
  }
  // The instruction writes its first operand (a register or vector).
  constexpr bool writes() const { return max_ops > 0 && (kind[0] == 'd' || kind[0] == 'D' || kind[0] == 'V'); }
};

// The grammar row of an opcode.
const OperandGrammar& op_grammar(Op op);

struct OpcodeRow {
  Op op = Op::kMov;
  bool typed = false;  // takes a type modifier (.u32, .f32, ...): one is then required
  std::unordered_set<std::string> mods;
  // A variant row ("bar.red", "cp.async.wait_group"): the modifiers its name
  // adds to the opcode's (also in `mods`); empty for the opcode's own row.
  std::vector<std::string> variant;
};

class OpcodeTable {
 public:
  // Throws PtxError naming the table file and line.
  static OpcodeTable load(const std::string& path);
  // The row named exactly `name` ("bar", "bar.red"), or null.
  const OpcodeRow* find(std::string_view name) const;
  // The row of an instruction written as `opcode` (the text before its first
  // dot) with these modifiers: a row named "opcode.x.y" is the variant written
  // with .x and .y anywhere among them (bar.cta.red.popc is bar.red); the
  // variant naming the most of them wins, else the opcode's own row; null if
  // neither exists.
  const OpcodeRow* find(std::string_view opcode, const std::vector<std::string_view>& mods) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unordered_map<std::string, OpcodeRow> rows_;
  std::unordered_map<std::string, std::vector<std::string>> variants_;  // opcode -> its variant rows' names
};

// Opcode name of an Op ("add"), and the Op of a name (false if none).
const char* op_name(Op op);
bool op_from(std::string_view name, Op& op);

}  // namespace accelsim::ptx
