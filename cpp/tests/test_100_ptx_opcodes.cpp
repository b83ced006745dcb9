// The opcode list declared once (ptx/opcodes.def): names and enum agree, the
// parser's modifier table names only opcodes the list has, and each row's
// operand grammar is what the parser checks and what "writes a register" means.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_records.h"
#include "ptx_test_util.h"
#include "tests/harness.h"

using namespace accelsim::ptx;

TEST_CASE("191-every-opcode-name-maps-back-to-its-op") {
  std::set<std::string> names;
  for (size_t i = 0; i < size_t(Op::kCount); ++i) {
    const Op op = Op(i);
    Op back = Op::kCount;
    CHECK(op_from(op_name(op), back));
    CHECK(back == op);
    CHECK(names.insert(op_name(op)).second);  // no name twice
  }
  Op bar = Op::kCount;
  CHECK(op_from("barrier", bar) && bar == Op::kBar);  // the one alias
  CHECK(!op_from("no_such_op", bar));
}

TEST_CASE("192-the-grammar-table-covers-the-opcode-list") {
  const std::string path = std::string(ACCELSIM_SOURCE_DIR) + "/configs/ptx/opcodes.txt";
  const OpcodeTable t = OpcodeTable::load(path);  // throws on a row with no Op
  for (size_t i = 0; i < size_t(Op::kCount); ++i) {
    const OpcodeRow* row = t.find(op_name(Op(i)));
    CHECK(row != nullptr);
    if (row) CHECK(row->op == Op(i));
  }
}

TEST_CASE("193-each-row-s-operand-grammar-gives-counts-kinds-and-destination") {
  const OperandGrammar& add = op_grammar(Op::kAdd);
  CHECK(add.min_ops == 3 && add.max_ops == 3 && add.sized && add.writes());
  CHECK(add.kind[0] == 'd' && add.kind[1] == 's' && add.kind[2] == 's');
  const OperandGrammar& setp = op_grammar(Op::kSetp);  // optional operands come last
  CHECK(setp.min_ops == 3 && setp.max_ops == 5 && !setp.sized);
  CHECK(!op_grammar(Op::kSt).writes() && !op_grammar(Op::kBra).writes() && !op_grammar(Op::kRet).writes());
  CHECK(op_grammar(Op::kLd).writes() && op_grammar(Op::kAtom).writes() && !op_grammar(Op::kRed).writes());
  CHECK(op_grammar(Op::kShl).kind[2] == 'u');  // the shift amount is .u32 whatever the type
  for (size_t i = 0; i < size_t(Op::kCount); ++i) {
    const OperandGrammar& g = op_grammar(Op(i));
    CHECK(g.min_ops <= g.max_ops && g.max_ops <= OperandGrammar::kMax);
    CHECK(writes_reg(Op(i)) == g.writes());
  }
  // the grammar is checked as opcodes.def is compiled: a bad row does not build
  constexpr OperandGrammar parsed = OperandGrammar::parse("= D a [s] [*]");
  static_assert(parsed.sized && parsed.min_ops == 2 && parsed.max_ops == 4 && parsed.kind[3] == '*');
}

TEST_CASE("194-the-parser-refuses-operands-against-the-grammar-row") {
  accelsim::testing::PtxTables f;
  auto refusal = [&](const std::string& inst) -> std::string {
    const std::string text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry k(.param .u64 p) {\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n" +
                             inst + "\nret;\n}\n";
    try {
      parse_module(text, "t.ptx", f.ops);
    } catch (const PtxError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(refusal("add.u32 %r1, %r2, 3;").empty());
  CHECK(refusal("add.u32 7, %r2, 3;").find("operand 1 of 'add.u32' must be a register") != std::string::npos);
  CHECK(refusal("add.u32 %r1, [%rd1], 3;").find("operand 2 of 'add.u32' must be a register, immediate") !=
        std::string::npos);
  CHECK(refusal("add.u32 %r1, %r2;").find("'add' takes 3 operands, got 2") != std::string::npos);
  CHECK(refusal("setp.eq.u32 %r1, %r2, 1, 2, 3, 4;").find("takes 3-5 operands, got 6") != std::string::npos);
  CHECK(refusal("st.global.u32 %r1, %r2;").find("must be an address") != std::string::npos);
  CHECK(refusal("add.u32 %r1, %rd1, 3;").find("type mismatch") != std::string::npos);  // '=': sized
  CHECK(refusal("shl.b32 %r1, %r2, %r3;").empty());
}

TEST_CASE("195-a-variant-row-takes-the-instructions-that-name-its-modifiers") {
  const OpcodeTable t = OpcodeTable::load(std::string(ACCELSIM_SOURCE_DIR) + "/configs/ptx/opcodes.txt");
  auto op_of = [&](std::string_view opcode, std::vector<std::string_view> mods) {
    const OpcodeRow* row = t.find(opcode, mods);
    return row ? row->op : Op::kCount;
  };
  CHECK(op_of("bar", {"sync"}) == Op::kBar);
  CHECK(op_of("bar", {"cta", "red", "popc", "u32"}) == Op::kBarRed);  // the variant's word anywhere
  CHECK(op_of("barrier", {"red", "and", "pred"}) == Op::kBarRed);
  CHECK(op_of("cp", {"async", "ca", "shared", "global"}) == Op::kCpAsync);
  CHECK(op_of("cp", {"async", "wait_group"}) == Op::kCpAsyncWait);  // the variant naming the most wins
  CHECK(op_of("cp", {"async", "commit_group"}) == Op::kCpAsyncCommit);
  CHECK(op_of("cp", {"reduce"}) == Op::kCount);  // no row of its own, no variant matches
  const OpcodeRow* red = t.find("bar.red");
  CHECK(red && red->variant == std::vector<std::string>{"red"} && red->mods.count("red") && red->mods.count("popc"));
  CHECK(!t.find("bar")->mods.count("red"));  // bar.red's words are the variant's, not bar's
  Op alias = Op::kCount;
  CHECK(op_from("barrier.red", alias) && alias == Op::kBarRed);
}
