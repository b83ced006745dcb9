// The opcode list declared once (ptx/opcodes.def): names and enum agree, and
// the parser's grammar table names only opcodes the list has.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "ptx/opcode_table.h"
#include "ptx/ptx_records.h"
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
