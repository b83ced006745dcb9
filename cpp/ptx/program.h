// A kernel ready to emulate on one GPU generation: its instructions with
// immediates converted to the bits each operand needs, immediate
// post-dominators for reconvergence, and per instruction the instruction
// records (SASS opcodes from configs/ptx/lowering.txt) the timing model sees.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/inst_record.h"
#include "isa/isa_table.h"
#include "ptx/module.h"

namespace accelsim::ptx {

class LoweringTable {
 public:
  struct Row {
    std::vector<std::string> key;                  // modifiers that must be present
    std::vector<std::vector<std::string>> sass;    // each: alternatives A|B
    uint32_t line = 0;
  };
  // Throws PtxError naming the file and line.
  static LoweringTable load(const std::string& path);
  // Best row for an instruction, or nullptr; `context`: pseudo-modifiers
  // from its neighbours (ptx/lowering_context.h).
  const Row* find(const Inst& in, const std::vector<std::string>& context = {}) const;
  // The row of a pseudo-instruction (`entry`: the kernel prologue), or nullptr.
  const Row* pseudo(std::string_view name) const;
  const std::string& path() const { return path_; }

 private:
  std::span<const std::pair<std::string, Row>> rows_of(std::string_view op) const;
  std::string path_;
  std::vector<std::pair<std::string, Row>> rows_;  // (opcode, row), sorted by opcode
};

struct Program {
  std::shared_ptr<const Module> module;
  const Function* fn = nullptr;       // the kernel
  // The kernel followed by every .func it calls (transitively), registers,
  // variables and branch targets renumbered into one space.
  std::vector<Inst> insts;            // kImm operands hold their bits in imm
  std::vector<Symbol> syms;           // local / scratch offsets are per-thread local memory
  uint32_t nregs = 0, local_bytes = 0;
  // Static shared bytes of one block: the kernel's, then each called
  // .func's own .shared variables; the dynamic shared memory follows, at
  // the largest alignment any of them asks for.
  uint32_t shared_bytes = 0, dyn_shared_align = 1;
  struct Callee {
    int32_t entry = 0;                 // first instruction
    std::vector<int32_t> params, rets;  // its .param symbols (syms indices)
  };
  std::vector<Callee> callees;        // a call's ops[0].sym indexes this
  // per Module::address_taken: its callee, -1 if not linked (an .entry)
  std::vector<int32_t> address_callee;
  std::vector<int32_t> ipdom;         // reconvergence point (insts.size() = exit)
  std::vector<isa::InstRecord> tmpl;  // record templates, tmpl_begin[i]..tmpl_begin[i+1]
  std::vector<uint32_t> tmpl_begin;
  std::vector<int16_t> mem_tmpl;      // per inst: template index carrying addresses, -1 none
  uint32_t binary_version = 0;
  // SASS-guided loops ptxas unrolled (SassLoop): their control records are
  // templates after the instructions' (tmpl[tmpl_begin.back()...]).
  struct UnrolledLoop {
    int32_t first_pc = 0, last_pc = 0;  // the PTX loop block
    uint32_t k = 0;
    uint32_t every_k_begin = 0, every_k_end = 0;
    std::vector<uint32_t> exit_begin;  // at_exit[n] is exit_begin[n]..exit_begin[n + 1]
  };
  std::vector<UnrolledLoop> loops;
  std::vector<int16_t> loop_of;  // per inst: its loop, -1 none (empty without loops)
};

struct SassGuide;  // ptx/sass_guided.h
// What each executed PTX instruction records for the timing model:
// kLowered, the SASS sequence of configs/ptx/lowering.txt; kPtx, one record
// per PTX instruction with GPGPU-Sim's PTX latency classes (ptx_records.h).
enum class RecordMode : uint8_t { kLowered, kPtx };

// The kernel and the .funcs it calls, callees after callers. Throws PtxError
// where a launch of it cannot run: no such .entry, a call without a body,
// recursion, or an instruction the parser kept as unsupported
// (Function::unsupported), naming its line.
std::vector<const Function*> call_graph(const Module& module, const std::string& kernel);

// Throws PtxError for a kernel that does not exist or uses what the emulator
// does not support yet (naming the instruction's line). With `sass`, the
// records are the SASS it names per PTX line (records="sass").
std::shared_ptr<const Program> prepare(std::shared_ptr<const Module> module, const std::string& kernel,
                                       const isa::IsaTable& isa, const LoweringTable& lowering,
                                       uint32_t binary_version, RecordMode records = RecordMode::kLowered,
                                       const SassGuide* sass = nullptr);

// Building blocks of the record builders (lowered, ptx_records.cpp).
// PTX virtual register -> scoreboard register (may add false dependencies, never drops one).
uint16_t packed_reg(int32_t reg);
bool writes_reg(Op op);
// The instruction's lowering row; PtxError naming the PTX line if none.
const LoweringTable::Row& lowering_row(const LoweringTable& lowering, const Inst& in,
                                       const std::vector<std::string>& context = {});
// First of the alternatives A|B the ISA table has; PtxError naming the row if none.
// An alternative may spell modifiers ("MUFU.EX2"): the opcode is looked up,
// and `lat_class` gets the spelling's per-opcode latency class.
int sass_opcode(const isa::IsaTable& isa, const LoweringTable& lowering, const LoweringTable::Row& row,
                const std::vector<std::string>& alts, uint8_t* lat_class = nullptr);
// Register fields of an instruction's records: the first reads the PTX
// sources, later ones the value the sequence built so far; all write the PTX
// destination and read the guard predicate (dependences in PTX order).
void set_registers(const Inst& in, bool first, isa::InstRecord& r);
// A record of SASS opcode `id` for `in`: unit, memory space and flags from the
// ISA table; destination; sources (the PTX operands when `first`, else the
// previous step's result) and the guard predicate; memory access size.
isa::InstRecord operand_record(const Inst& in, const isa::IsaTable& isa, uint16_t id, bool first);

// Bits of an immediate operand as a value of type `ty`.
uint64_t imm_bits(const Operand& o, Ty ty);

}  // namespace accelsim::ptx
