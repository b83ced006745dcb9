// SASS-guided records (Device(records="sass"), docs/ptx.md): per
// PTX line, the real SASS instructions ptxas made of it (from ptxas -lineinfo
// and nvdisasm -g, parsed in Python), recorded for each executed PTX
// instruction instead of the generic lowering table.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "isa/isa_table.h"

namespace accelsim::ptx {

struct Program;

// A loop ptxas unrolled again (python accelsim.ptx.sass_unroll.recording_plan):
// per PTX iteration one body copy, the main loop's control after every k-th
// iteration, and on leaving after n iterations the control of the guards,
// chunk and remainder loop n runs, so that the records follow the counts
// ptxas's SASS blocks run.
struct SassLoop {
  using Op = std::pair<uint32_t, std::string>;  // (PTX line, SASS opcode spelling)
  std::vector<uint32_t> lines;                  // the PTX loop block's lines, in order
  uint32_t k = 0;                               // the main loop's body copies
  std::unordered_map<uint32_t, std::vector<std::string>> body;  // per line, one copy
  std::vector<Op> every_k;
  std::vector<std::vector<Op>> at_exit;  // [n] for n < 2k; n >= 2k folds onto [k, 2k)
};

struct SassGuide {
  std::string source;  // where the SASS came from, for errors ("nvdisasm sm_75 of m.ptx")
  // PTX line -> SASS opcode spellings in address order ("LDG.E.SYS"); a line
  // absent or empty records nothing when it executes.
  std::unordered_map<uint32_t, std::vector<std::string>> by_line;
  std::vector<SassLoop> loops;  // their lines record the loop's body instead of by_line
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
