// Helpers for the PTX front-end tests: the bundled opcode, lowering and
// Volta ISA tables, loaded once per test.
#pragma once
#include <memory>
#include <string>

#include "isa/isa_table.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"

namespace accelsim::testing {

inline const std::string kConfigDir = ACCELSIM_SOURCE_DIR "/configs/";

struct PtxTables {
  ptx::OpcodeTable ops = ptx::OpcodeTable::load(kConfigDir + "ptx/opcodes.txt");
  ptx::LoweringTable low = ptx::LoweringTable::load(kConfigDir + "ptx/lowering.txt");
  std::shared_ptr<isa::IsaTable> isa_ptr =
      std::make_shared<isa::IsaTable>(isa::IsaTable::load(kConfigDir + "isa/sm_70.isa"));
  isa::IsaTable& isa = *isa_ptr;  // for prepare(), which takes it by reference
};

}  // namespace accelsim::testing
