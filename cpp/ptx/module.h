// A parsed PTX module: its variables and functions, each function's virtual
// registers (dense ids), variables and decoded instructions. Built once by
// parse_module(), then read-only (shared by every launch and thread).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ptx/types.h"

namespace accelsim::ptx {

// One per row of ptx/opcodes.def.
enum class Op : uint8_t {
#define ACCELSIM_PTX_OP(op, name, record_class, exec, operands) op,
#include "ptx/opcodes.def"
#undef ACCELSIM_PTX_OP
  kCount
};

// Modifier bits (an instruction's .rn, .ftz, ...).
enum ModBit : uint32_t {
  kMRn = 1u << 0, kMRz = 1u << 1, kMRm = 1u << 2, kMRp = 1u << 3,
  kMRni = 1u << 4, kMRzi = 1u << 5, kMRmi = 1u << 6, kMRpi = 1u << 7,
  kMFtz = 1u << 8, kMSat = 1u << 9, kMApprox = 1u << 10, kMFull = 1u << 11,
  kMWide = 1u << 12, kMHi = 1u << 13, kMLo = 1u << 14, kMUni = 1u << 15,
  kMTo = 1u << 16, kMCg = 1u << 17, kMVolatile = 1u << 18, kMCc = 1u << 19,
  kMAligned = 1u << 20,
  kMInFunc = 1u << 21,  // set by prepare(): the instruction belongs to a .func body
  kMSpin = 1u << 22,    // set by prepare(): a loop's back edge whose body polls memory
  kMArrive = 1u << 23,  // set by prepare(): bar.arrive / barrier.arrive (no wait)
  kMShiftAmt = 1u << 24,  // bfind.shiftamt
  kMIgnoreSrc = 1u << 25,  // set by the parser: cp.async's fourth operand is the ignore-src predicate
  kMRna = 1u << 26,  // cvt.rna (to .tf32): nearest, ties away from zero
};

// Comparison of setp / set; sub-operation of atom/red/vote/shfl.
enum Cmp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kLo, kLs, kHi, kHs, kEqu, kNeu, kLtu, kLeu,
                     kGtu, kGeu, kNum, kNan, kCmpNone };
enum SubOp : uint8_t { kSubNone, kAtAdd, kAtMin, kAtMax, kAtInc, kAtDec, kAtCas, kAtExch, kAtAnd,
                       kAtOr, kAtXor, kShUp, kShDown, kShBfly, kShIdx, kVoAll, kVoAny, kVoUni,
                       kVoBallot, kBoolAnd, kBoolOr, kBoolXor, kRedPopc };

enum Special : uint8_t { kSpTid, kSpNtid, kSpCtaid, kSpNctaid, kSpLaneid, kSpWarpid, kSpNwarpid,
                         kSpSmid, kSpNsmid, kSpClock, kSpClock64, kSpLanemaskEq, kSpLanemaskLt,
                         kSpLanemaskLe, kSpLanemaskGt, kSpLanemaskGe, kSpGridid, kSpEnvreg };

struct Operand {
  enum Kind : uint8_t { kNone, kReg, kImm, kAddr, kVec, kLabel, kSym, kSpecial, kSink, kList };
  Kind kind = kNone;
  bool neg = false;        // "!%p"
  uint8_t lit = 0;         // kImm: 0 integer, 1 f32 bits, 2 f64 bits, 3 decimal float
  uint8_t special = 0;     // kSpecial: Special
  uint8_t comp = 0;        // kSpecial: 0 x, 1 y, 2 z
  uint8_t nvec = 0;
  int32_t reg = -1;        // kReg, kAddr base register (-1 none)
  int32_t reg2 = -1;       // kReg: the predicate of a "d|p" destination, -1 none
  int32_t sym = -1;        // kSym, kAddr: Function::syms index (-1 none)
  int64_t imm = 0;         // kImm value, kAddr offset, kLabel target instruction
  double fval = 0;         // kImm lit 3
  int32_t vec[8] = {-1, -1, -1, -1, -1, -1, -1, -1};  // kVec registers (-1: sink "_"); 8 for mma fragments
  uint32_t col = 0;
  std::string name;        // kLabel / call target (resolved after the body)
};

// The shape modifiers of wmma / mma / ldmatrix, decoded by the parser.
enum MmaShape : uint8_t {
  kShapeNone, kM16n16k16, kM16n16k8, kM32n8k16, kM8n32k16, kM16n8k64, kM16n8k32, kM16n8k16, kM16n8k8, kM16n8k4,
  kM8n8k32, kM8n8k16, kM8n8k4,
  kM8n8  // ldmatrix / stmatrix
};
struct MmaMods {
  uint8_t shape = kShapeNone;
  uint8_t matrix = 0;    // wmma.load / wmma.store: 0 .a, 1 .b, 2 .c, 3 .d
  uint8_t col = 0;       // bit k: the k-th layout modifier is .col (.row otherwise); mma: A's, then B's
  uint8_t layouts = 0;   // how many layout modifiers
  // bit-fields keep Inst at 144 bytes (the interpreter walks arrays of them)
  uint8_t count : 4 = 0;      // ldmatrix / stmatrix: .x1 / .x2 / .x4 (0: none given)
  uint8_t trans : 1 = 0;      // ldmatrix / stmatrix .trans
  uint8_t satfinite : 1 = 0;  // integer mma / wmma.mma: D clamped to the .s32 range
  Ty atype = kTyNone;    // mma / wmma.mma: A's and B's element types (.f16, .bf16, .tf32, .f64, .s8, .u8, .s4, .u4)
  Ty btype = kTyNone;
};

struct Inst {
  Op op = Op::kMov;
  Ty type = kTyNone;       // the last type modifier (destination type for cvt)
  Ty type2 = kTyNone;      // cvt: source type; others: the first type if two were given
  Space space = kSpNone;
  Cmp cmp = kCmpNone;
  SubOp sub = kSubNone;    // atom/red op, shfl mode, vote mode, setp bool op, bar.red op
  uint8_t vec = 1;         // .v2 / .v4
  uint8_t geom = 0;        // tex, tld4, suld, sust: TexGeom (ptx/texture_sampler.h), set by prepare()
  uint8_t tex_mode = 0;    // tld4: component (0 r .. 3 a); suld/sust: out of range (0 trap, 1 clamp, 2 zero)
  uint32_t mods = 0;       // ModBit
  int32_t pred = -1;       // guard predicate register, -1 none
  bool pred_neg = false;
  uint32_t line = 0, col = 0;
  MmaMods mma;             // wmma / mma / ldmatrix only
  std::string spelling;    // opcode token as written, for messages and lowering
  std::vector<Operand> ops;
  std::vector<int32_t> call_rets, call_args;  // call: .param symbols (Function::syms)
};

struct Symbol {
  std::string name;
  Space space = kSpNone;
  uint32_t size = 0, align = 1;
  uint32_t offset = 0;          // shared / local / param: offset in that space
  int32_t global = -1;          // module-level variable index (global/const), -1 otherwise
  bool dynamic_shared = false;  // .extern .shared with no size
  bool scratch = false;         // a .func's or a call site's .param: per-thread memory
  std::vector<uint8_t> init;    // initialiser bytes (module globals)
  uint32_t line = 0, col = 0;   // where it is declared
};

struct Param {
  std::string name;
  Ty type = kTyNone;
  uint32_t size = 0, align = 1, offset = 0;
  bool pointer = false;         // .ptr attribute or a .u64 used as an address
};

struct Reg {
  std::string name;
  Ty type = kTyNone;
};

struct Function {
  std::string name;
  bool entry = false;
  bool defined = false;          // has a body (not a prototype)
  uint32_t line = 0;
  std::vector<Param> params;     // entry: kernel parameters (param buffer layout)
  std::vector<Param> rets;       // .func return parameters
  int32_t param_sym = -1, ret_sym = -1;  // first Function::syms index of params / rets
  std::vector<Symbol> syms;      // every variable the body can name
  std::vector<Reg> regs;
  std::vector<Inst> insts;
  uint32_t param_bytes = 0, shared_bytes = 0, local_bytes = 0;
  uint32_t dyn_shared_align = 1;
  bool calls = false;            // uses call (not emulated yet)
  // The first instruction the front end cannot take (an opcode or modifier
  // the opcode data lacks). Kept instead of thrown, so that the module's
  // other kernels still run; prepare() throws it for a launch of this
  // function or of a kernel that calls it. Empty `detail`: none.
  struct Unsupported {
    uint32_t line = 0, col = 0;
    std::string token, detail;
  } unsupported;
};

// A .func's address as a value (mov of its name, a variable initialised
// with it): this base plus 16 x its index in Module::address_taken. Never a
// memory address; calls through a register decode it.
inline constexpr uint64_t kFuncAddrBase = 0x7ff0000000000000ull;

struct Module {
  std::string path;              // file name for messages ("<string>" for text)
  std::string version, target;
  uint32_t isa = 0;              // .version as major * 10 + minor (ptx/isa_limits.h); 0 if absent
  uint32_t sm = 0;               // from .target sm_XX
  uint32_t address_size = 64;
  std::vector<Symbol> globals;   // .global / .const variables (placed per device)
  std::vector<Function> funcs;
  std::vector<std::string> address_taken;  // functions whose address the module takes (kFuncAddrBase)
  const Function* find(const std::string& name) const {
    for (const Function& f : funcs)
      if (f.name == name && f.defined) return &f;
    return nullptr;
  }
};

class OpcodeTable;
// Parses PTX text; `path` names it in errors. Throws PtxError.
std::shared_ptr<const Module> parse_module(const std::string& text, const std::string& path,
                                           const OpcodeTable& table);

}  // namespace accelsim::ptx
