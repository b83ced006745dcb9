// SASS-guided records (Device(records="sass"), docs/ptx.md): per
// PTX line, the real SASS instructions ptxas made of it (from ptxas -lineinfo
// and nvdisasm -g, parsed in Python), recorded for each executed PTX
// instruction instead of the generic lowering table.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/isa_table.h"

namespace accelsim::ptx {

struct Program;

struct SassGuide {
  std::string source;  // where the SASS came from, for errors ("nvdisasm sm_75 of m.ptx")
  // PTX line -> SASS opcode spellings in address order ("LDG.E.SYS"); a line
  // absent or empty records nothing when it executes.
  std::unordered_map<uint32_t, std::vector<std::string>> by_line;
};

// Replaces p's record templates (tmpl, tmpl_begin, mem_tmpl) with the
// guide's SASS. Must run after the lowered templates exist: their memory
// space picks which SASS instruction carries the PTX access's addresses.
// Throws PtxError for an opcode the ISA table lacks.
void apply_sass_guide(Program& p, const isa::IsaTable& isa, const SassGuide& guide);

// Id of a SASS mnemonic in `isa`, or -1. A GPU whose table predates
// Turing's uniform datapath (Volta) takes each uniform opcode as its vector
// twin (UIADD3 -> IADD3, ULDC -> LDC, S2UR -> S2R, R2UR -> MOV, VOTEU -> VOTE).
int sass_opcode(const isa::IsaTable& isa, std::string_view mnemonic);

}  // namespace accelsim::ptx
