// records="ptx": one instruction record per executed PTX instruction, timed
// as GPGPU-Sim times PTX (its ptx_instruction latency classes): the unit and
// latency class come from the PTX opcode and type, the cycles from the
// config's ptx_latency_* / ptx_initiation_* (SmParams::ptx_timing).
#pragma once
#include <cstdint>

#include "isa/ptx_latency.h"
#include "ptx/program.h"

namespace accelsim::ptx {

struct PtxClass {
  bool keep_sass = false;  // memory, barrier, exit, fence: the SASS opcode's unit and timing
  uint8_t unit = isa::kUnitInt;
  uint8_t lat = isa::kLatAlu;
};

// The class GPGPU-Sim gives an instruction on a GPU with INT units (Volta
// on): ALU operations (moves, logic, compares, conversions, branches) run on
// the INT unit in 1 cycle; add/min-max/mul/mad by type on INT, SP or DP;
// div/rem and the transcendentals on the SFU; shfl on INT.
PtxClass ptx_class(const Inst& in);

// Fills p.tmpl / tmpl_begin / mem_tmpl with one record per instruction; its
// opcode (for names, memory space and flags) is the lowering row's memory
// opcode, else its first; ld.param reads the constant bank (LDC, a call's
// parameter slot LDL), st.param writes local memory (STL), cvta is a MOV.
void ptx_class_templates(Program& p, const isa::IsaTable& isa, const LoweringTable& lowering);

}  // namespace accelsim::ptx
