#include "ptx/program.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "isa/sass_latency.h"
#include "ptx/lowering_context.h"
#include "ptx/mma_fragment.h"
#include "ptx/opcode_table.h"
#include "ptx/ptx_error.h"
#include "ptx/sass_guided.h"
#include "ptx/texture_inst.h"
#include "ptx/ptx_records.h"

namespace accelsim::ptx {

namespace {

// Modifier words of an instruction as lowering keys see them.
std::vector<std::string> key_parts(const Inst& in) {
  std::vector<std::string> parts;
  std::string_view s = in.spelling;
  size_t dot = s.find('.');
  while (dot != std::string_view::npos) {
    size_t nd = s.find('.', dot + 1);
    parts.emplace_back(s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1));
    dot = nd;
  }
  bool mem = in.op == Op::kLd || in.op == Op::kSt || in.op == Op::kAtom || in.op == Op::kRed;
  if (mem && in.space == kSpNone) parts.emplace_back("generic");
  if ((in.op == Op::kMov || in.op == Op::kCvt) && in.ops.size() > 1 && in.ops[1].kind == Operand::kSpecial)
    parts.emplace_back("special");
  // the launch dimensions live in the constant bank (c[0x0][0x0..0x14]): SASS
  // reads them as operands of the instruction that uses them
  if (!parts.empty() && parts.back() == "special" &&
      (in.ops[1].special == kSpNtid || in.ops[1].special == kSpNctaid))
    parts.emplace_back("cbank");
  if (in.mods & kMInFunc) parts.emplace_back("func");
  return parts;
}

std::string opcode_of(const Inst& in) { return in.spelling.substr(0, in.spelling.find('.')); }

// Immediate post-dominators over instructions (node n = the exit), by the
// iterative dominator algorithm on the reverse CFG (Cooper, Harvey, Kennedy).
std::vector<int32_t> post_dominators(const std::vector<Inst>& insts) {
  const int n = int(insts.size());
  std::vector<std::vector<int>> succ(size_t(n) + 1), pred(size_t(n) + 1);
  for (int i = 0; i < n; ++i) {
    const Inst& in = insts[size_t(i)];
    auto edge = [&](int to) {
      succ[size_t(i)].push_back(to);
      pred[size_t(to)].push_back(i);
    };
    if (in.op == Op::kRet || in.op == Op::kExit) {
      edge(n);
      if (in.pred >= 0) edge(i + 1);
    } else if (in.op == Op::kBra) {
      edge(int(in.ops[0].imm));
      if (in.pred >= 0 && in.ops[0].imm != i + 1) edge(i + 1);
    } else {
      edge(i + 1);
    }
  }
  // postorder of the reverse graph from the exit (walking CFG predecessors)
  std::vector<int> order, num(size_t(n) + 1, -1);
  std::vector<std::pair<int, size_t>> stack{{n, 0}};
  std::vector<char> seen(size_t(n) + 1, 0);
  seen[size_t(n)] = 1;
  while (!stack.empty()) {
    auto& [v, k] = stack.back();
    if (k < pred[size_t(v)].size()) {
      int w = pred[size_t(v)][k++];
      if (!seen[size_t(w)]) {
        seen[size_t(w)] = 1;
        stack.push_back({w, 0});
      }
    } else {
      num[size_t(v)] = int(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::vector<int32_t> ipdom(size_t(n) + 1, -1);
  ipdom[size_t(n)] = n;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (num[size_t(a)] < num[size_t(b)]) a = ipdom[size_t(a)];
      while (num[size_t(b)] < num[size_t(a)]) b = ipdom[size_t(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      int v = *it;
      if (v == n) continue;
      int best = -1;
      for (int s : succ[size_t(v)]) {
        if (ipdom[size_t(s)] < 0 || num[size_t(s)] < 0) continue;
        best = best < 0 ? s : intersect(s, best);
      }
      if (best >= 0 && ipdom[size_t(v)] != best) {
        ipdom[size_t(v)] = best;
        changed = true;
      }
    }
  }
  for (int i = 0; i < n; ++i)
    if (ipdom[size_t(i)] < 0) ipdom[size_t(i)] = n;  // cannot reach the exit (endless loop)
  ipdom.pop_back();
  return ipdom;
}

uint32_t align_to(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Why a call's target has no body: the CUDA device runtime's functions the
// emulator does not provide are named, with what to do instead.
std::string missing_body(const std::string& name) {
  if (name == "vprintf")
    return "printf in device code (vprintf) is not supported by the PTX emulator yet; remove it or compile it "
           "out (e.g. #ifndef ACCELSIM) and copy results to the host instead";
  if (name == "malloc" || name == "free")
    return "device-side " + name + " (the CUDA device heap) is not supported by the PTX emulator yet; allocate "
           "with Device.empty()/zeros() on the host and pass the pointer";
  if (name == "__assertfail")
    return "assert() in device code (__assertfail) is not supported by the PTX emulator yet; compile with "
           "-DNDEBUG";
  if (name.rfind("cudaGetParameterBuffer", 0) == 0 || name.rfind("cudaLaunchDevice", 0) == 0)
    return "dynamic parallelism (a kernel launching kernels) is not supported by the PTX emulator";
  return "call to a function declared without a body (.extern .func) in this module: the emulator runs only "
         "functions defined in the module";
}

// The kernel and the .funcs it reaches, callees after callers; recursion is
// a PtxError (the emulator gives each function one register range).
void collect(const Module& m, const Function* f, std::vector<const Function*>& order,
             std::vector<const Function*>& path) {
  path.push_back(f);
  if (std::find(order.begin(), order.end(), f) == order.end()) order.push_back(f);
  for (const Inst& in : f->insts) {
    if (in.op != Op::kCall || in.ops[0].kind != Operand::kLabel) continue;  // calls through a register: below
    const Function* g = m.find(in.ops[0].name);
    if (!g) throw PtxError(m.path, in.line, in.col, in.ops[0].name, missing_body(in.ops[0].name));
    if (std::find(path.begin(), path.end(), g) != path.end())
      throw PtxError(m.path, in.line, in.col, in.ops[0].name, "recursive calls are not supported by the PTX emulator yet");
    if (std::find(order.begin(), order.end(), g) == order.end()) collect(m, g, order, path);
  }
  path.pop_back();
}

// A .shared variable a .func declares itself (not a module-level one, which
// every function numbers alike, nor the dynamic shared memory).
bool is_func_shared(const Function& kernel, const Symbol& s) {
  if (s.space != kSpShared || s.global >= 0 || s.dynamic_shared) return false;
  for (const Symbol& k : kernel.syms)
    if (k.name == s.name && k.space == kSpShared) return false;
  return true;
}

// The block's shared memory holds each called .func's own .shared variables
// after the kernel's (CUDA gives a function-scope __shared__ one instance
// per block). The .func numbered them from 0 after the module-level ones, so
// its whole numbering moves to an offset aligned for every one of them;
// returns that offset.
uint32_t place_func_shared(const Function& kernel, const Function& f, Program& p) {
  uint32_t align = 1;
  bool any = false;
  for (const Symbol& s : f.syms)
    if (is_func_shared(kernel, s)) any = true, align = std::max(align, s.align);
  p.dyn_shared_align = std::max(p.dyn_shared_align, f.dyn_shared_align);
  if (!any) return 0;
  const uint32_t base = align_to(p.shared_bytes, std::max<uint32_t>(align, 16));
  p.shared_bytes = base + f.shared_bytes;
  return base;
}

// Per function whose address the module takes: its callee number in the
// linked program (order[0] is the kernel), -1 if it is not linked.
std::vector<int32_t> address_callees(const Module& m, const std::vector<const Function*>& order) {
  std::vector<int32_t> out;
  for (const std::string& name : m.address_taken) {
    const auto at = std::find(order.begin(), order.end(), m.find(name));
    out.push_back(at == order.end() || at == order.begin() ? -1 : int32_t(at - order.begin()) - 1);
  }
  return out;
}

// Where one function of the linked program starts in its register, symbol
// and instruction numbering.
struct Bases {
  int32_t reg, sym, inst;
};

// Appends f's registers, instructions and symbols to p: its locals after
// `local` (which moves past them), a callee's own .shared variables after
// the kernel's. Returns where f starts.
Bases append_function(const Function& kernel, const Function& f, Program& p, uint32_t& local) {
  const Bases b{int32_t(p.nregs), int32_t(p.syms.size()), int32_t(p.insts.size())};
  p.nregs += uint32_t(f.regs.size());
  p.insts.insert(p.insts.end(), f.insts.begin(), f.insts.end());
  const uint32_t base = align_to(local, 16);
  const bool callee = &f != &kernel;
  const uint32_t shared_base = callee ? place_func_shared(kernel, f, p) : 0;
  for (Symbol s : f.syms) {
    if (callee && is_func_shared(kernel, s)) s.offset += shared_base;
    if (s.space == kSpLocal) s.offset += base;
    p.syms.push_back(std::move(s));
  }
  local = base + f.local_bytes;
  return b;
}

// Argument / return slots after every function's locals; returns the local
// bytes per thread.
uint32_t place_call_slots(std::vector<Symbol>& syms, uint32_t local) {
  for (Symbol& s : syms)
    if (s.scratch) {
      local = align_to(local, std::max<uint32_t>(s.align, 1));
      s.offset = local;
      local += std::max<uint32_t>(s.size, 1);
    }
  return local;
}

Program::Callee callee_of(const Function& f, const Bases& b) {
  Program::Callee c;
  c.entry = b.inst;
  for (size_t k = 0; k < f.params.size(); ++k) c.params.push_back(b.sym + f.param_sym + int32_t(k));
  for (size_t k = 0; k < f.rets.size(); ++k) c.rets.push_back(b.sym + f.ret_sym + int32_t(k));
  return c;
}

// Moves a copied instruction's register, symbol and branch-target numbers
// from its function's numbering into the program's.
void relocate(Operand& o, const Bases& b) {
  if (o.reg >= 0) o.reg += b.reg;
  if (o.reg2 >= 0) o.reg2 += b.reg;
  if (o.sym >= 0) o.sym += b.sym;
  for (int e = 0; e < o.nvec; ++e)
    if (o.vec[e] >= 0) o.vec[e] += b.reg;
}
void relocate(Inst& in, const Bases& b, bool in_func) {
  if (in_func) in.mods |= kMInFunc;
  if (in.pred >= 0) in.pred += b.reg;
  for (int32_t& s : in.call_rets) s += b.sym;
  for (int32_t& s : in.call_args) s += b.sym;
  for (Operand& o : in.ops) {
    relocate(o, b);
    if (o.kind == Operand::kLabel && in.op == Op::kBra) o.imm += b.inst;
  }
}

// A call names its callee by index in Program::callees and by its entry.
void bind_call(const Module& m, const std::vector<const Function*>& order, const std::vector<Bases>& bases,
               Inst& in) {
  const Function* g = m.find(in.ops[0].name);
  const size_t gi = size_t(std::find(order.begin(), order.end(), g) - order.begin());
  in.ops[0].sym = int32_t(gi - 1);
  in.ops[0].imm = bases[gi].inst;
  if (in.call_args.size() != g->params.size() || in.call_rets.size() > g->rets.size())
    throw PtxError(m.path, in.line, in.col, g->name, "call passes the wrong number of parameters");
}

// Concatenates the kernel and its callees into p (see Program).
void link(const Module& m, const Function* kernel, Program& p) {
  const std::vector<const Function*> order = call_graph(m, kernel->name);
  p.shared_bytes = kernel->shared_bytes;
  p.dyn_shared_align = kernel->dyn_shared_align;
  std::vector<Bases> bases;
  uint32_t local = 0;
  for (const Function* f : order) bases.push_back(append_function(*kernel, *f, p, local));
  p.local_bytes = place_call_slots(p.syms, local);
  for (size_t fi = 0; fi < order.size(); ++fi) {
    if (fi > 0) p.callees.push_back(callee_of(*order[fi], bases[fi]));
    const int32_t end = fi + 1 < order.size() ? bases[fi + 1].inst : int32_t(p.insts.size());
    for (int32_t i = bases[fi].inst; i < end; ++i) {
      Inst& in = p.insts[size_t(i)];
      relocate(in, bases[fi], fi > 0);
      if (in.op == Op::kCall && in.ops[0].kind == Operand::kLabel) bind_call(m, order, bases, in);
    }
  }
  p.address_callee = address_callees(m, order);
}

}  // namespace

bool writes_reg(Op op) { return op_grammar(op).writes(); }

uint16_t packed_reg(int32_t reg) { return uint16_t(reg % 250 + 1); }

const LoweringTable::Row& lowering_row(const LoweringTable& lowering, const Inst& in,
                                       const std::vector<std::string>& context) {
  const LoweringTable::Row* row = lowering.find(in, context);
  if (!row)
    throw PtxError(lowering.path(), 0, 0, in.spelling,
                   "no lowering row for this instruction (PTX line " + std::to_string(in.line) + ")");
  return *row;
}

int sass_opcode(const isa::IsaTable& isa, const LoweringTable& lowering, const LoweringTable::Row& row,
                const std::vector<std::string>& alts, uint8_t* lat_class) {
  for (const std::string& a : alts) {  // "MUFU.EX2": the opcode is looked up, the function times it
    const std::string_view spelled(a);
    if (int id = isa.find(spelled.substr(0, spelled.find('.'))); id >= 0) {
      if (lat_class) *lat_class = isa::sass_lat_class(spelled);
      return id;
    }
  }
  throw PtxError(lowering.path(), row.line, 0, alts.front(), "SASS opcode not in the ISA table " + isa.name());
}

void set_registers(const Inst& in, bool first, isa::InstRecord& r) {
  if (writes_reg(in.op) && !in.ops.empty()) {
    const Operand& d = in.ops[0];
    if (d.kind == Operand::kReg) r.dst = packed_reg(d.reg);
    if (d.kind == Operand::kVec && d.vec[0] >= 0) r.dst = packed_reg(d.vec[0]);
  }
  if (first) {
    for (size_t k = writes_reg(in.op) ? 1 : 0; k < in.ops.size() && r.nsrc < 4; ++k) {
      const Operand& o = in.ops[k];
      if (o.kind == Operand::kReg) r.src[r.nsrc++] = packed_reg(o.reg);
      if (o.kind == Operand::kAddr && o.reg >= 0) r.src[r.nsrc++] = packed_reg(o.reg);
      if (o.kind == Operand::kVec || o.kind == Operand::kAddr)  // a texture operand's coordinates too
        for (int e = 0; e < o.nvec && r.nsrc < 4; ++e)
          if (o.vec[e] >= 0) r.src[r.nsrc++] = packed_reg(o.vec[e]);
    }
  } else if (r.dst != isa::kNoReg) {
    r.src[r.nsrc++] = r.dst;  // the sequence's steps depend on each other
  }
  if (in.pred >= 0 && r.nsrc < 4) r.src[r.nsrc++] = packed_reg(in.pred);
}

isa::InstRecord operand_record(const Inst& in, const isa::IsaTable& isa, uint16_t id, bool first) {
  const isa::OpcodeInfo& info = isa.info(id);
  isa::InstRecord r{};
  r.opcode = id;
  r.unit = info.unit;
  r.mem_space = info.mem_space;
  r.flags = info.flags;
  set_registers(in, first, r);
  if (info.mem_space != isa::kMemNone) {
    // as the trace decoder sizes it: constant-bank reads count 4 bytes
    r.access_bytes = info.mem_space == isa::kMemConst ? 4 : uint8_t(std::max(1, ty_bytes(in.type)) * in.vec);
    if (in.mods & kMCg) r.flags |= isa::kFlagBypassL1;
    if (in.op == Op::kCpAsync) r.access_bytes = uint8_t(in.ops[2].imm);  // cp-size: the instruction has no type
    // a lane's 8x8 row (16 bytes), or its part of a wmma fragment as one access of its distinct
    // elements' bytes (ptxas's loads and stores of it move as many: f32 D 32, f16 A 16, s8 A 8)
    if (in.op == Op::kLdmatrix || in.op == Op::kStmatrix) r.access_bytes = 16;
    if (in.op == Op::kWmmaLoad || in.op == Op::kWmmaStore)
      r.access_bytes = uint8_t(frag_elements(MmaShape(in.mma.shape), std::min<int>(in.mma.matrix, 2), in.type) *
                               frag_elem_bits(in.type) / 8);
  }
  return r;
}

namespace {

// The kernel's prologue (the lowering table's `entry` row: the stack pointer
// load every kernel starts with), before the first instruction's records.
void prologue_records(Program& p, const isa::IsaTable& isa, const LoweringTable& lowering) {
  const LoweringTable::Row* row = lowering.pseudo("entry");
  if (!row) return;
  for (const auto& alts : row->sass) {
    uint8_t lat_class = isa::kLatUnit;
    const uint16_t id = uint16_t(sass_opcode(isa, lowering, *row, alts, &lat_class));
    const isa::OpcodeInfo& info = isa.info(id);
    isa::InstRecord r{};  // no PTX register: ptxas's stack pointer
    r.opcode = id;
    r.unit = info.unit;
    r.mem_space = info.mem_space;
    r.flags = info.flags;
    r.lat_class = lat_class;
    p.tmpl.push_back(r);
  }
}

// Each PTX instruction as the SASS sequence configs/ptx/lowering.txt gives;
// addresses go to the sequence's first memory opcode.
void lowered_templates(Program& p, const isa::IsaTable& isa, const LoweringTable& lowering) {
  const std::vector<std::vector<std::string>> context = lowering_context(p.insts);
  p.tmpl_begin.push_back(0);
  for (size_t i = 0; i < p.insts.size(); ++i) {
    const Inst& in = p.insts[i];
    const LoweringTable::Row& row = lowering_row(lowering, in, context[i]);
    if (i == 0) prologue_records(p, isa, lowering);
    int16_t mem = -1;
    bool first = true;
    for (const auto& alts : row.sass) {
      uint8_t lat_class = isa::kLatUnit;
      uint16_t id = uint16_t(sass_opcode(isa, lowering, row, alts, &lat_class));
      isa::InstRecord r = operand_record(in, isa, id, first);
      first = false;
      r.lat_class = lat_class;
      if (r.mem_space != isa::kMemNone) {
        if (mem < 0) mem = int16_t(p.tmpl.size() - p.tmpl_begin.back());
        else r.access_bytes = 0, r.flags &= uint8_t(~isa::kFlagBypassL1);  // only the first carries addresses
      }
      p.tmpl.push_back(r);
    }
    p.mem_tmpl.push_back(mem);
    p.tmpl_begin.push_back(uint32_t(p.tmpl.size()));
  }
}

}  // namespace

uint64_t imm_bits(const Operand& o, Ty ty) {
  if (o.lit == 1 && ty == kF64) {
    float f;
    uint32_t b = uint32_t(o.imm);
    std::memcpy(&f, &b, 4);
    double d = f;
    uint64_t r;
    std::memcpy(&r, &d, 8);
    return r;
  }
  if (o.lit == 2 && ty == kF32) {
    double d;
    uint64_t b = uint64_t(o.imm);
    std::memcpy(&d, &b, 8);
    float f = float(d);
    uint32_t r;
    std::memcpy(&r, &f, 4);
    return r;
  }
  if (o.lit == 3 || (o.lit == 0 && ty_float(ty))) {
    double d = o.lit == 3 ? o.fval : double(o.imm);
    if (ty == kF32) {
      float f = float(d);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    uint64_t r;
    std::memcpy(&r, &d, 8);
    return r;
  }
  return uint64_t(o.imm);
}

LoweringTable LoweringTable::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PtxError(path, 0, 0, "", "cannot open the PTX lowering table");
  LoweringTable t;
  t.path_ = path;
  std::string line;
  uint32_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ss(line);
    std::string key;
    if (!(ss >> key)) continue;
    Row row;
    row.line = n;
    std::string op = key.substr(0, key.find('.'));
    for (size_t d = key.find('.'); d != std::string::npos;) {
      size_t nd = key.find('.', d + 1);
      row.key.push_back(key.substr(d + 1, nd == std::string::npos ? nd : nd - d - 1));
      d = nd;
    }
    std::string word;
    bool any = false;
    while (ss >> word) {
      any = true;
      if (word == "-") continue;
      // OP*N: N records of OP (a routine ptxas calls for the instruction)
      int repeat = 1;
      if (size_t star = word.find('*'); star != std::string::npos) {
        const std::string count = word.substr(star + 1);
        if (count.empty() || count.size() > 3 || count.find_first_not_of("0123456789") != std::string::npos ||
            std::stoi(count) == 0)
          throw PtxError(path, n, 0, word, "expected OP*N with N from 1 to 999");
        repeat = std::stoi(count);
        word.resize(star);
      }
      std::vector<std::string> alts;
      for (size_t b = 0;;) {
        size_t bar = word.find('|', b);
        alts.push_back(word.substr(b, bar == std::string::npos ? bar : bar - b));
        if (bar == std::string::npos) break;
        b = bar + 1;
      }
      for (int r = 0; r < repeat; ++r) row.sass.push_back(alts);
    }
    if (!any) throw PtxError(path, n, 0, key, "expected 'ptx-key sass-op ...' (or '-')");
    t.rows_.emplace_back(op, std::move(row));
  }
  // by opcode (file order kept within one), so a lookup visits its opcode's rows only
  std::stable_sort(t.rows_.begin(), t.rows_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return t;
}

std::span<const std::pair<std::string, LoweringTable::Row>> LoweringTable::rows_of(std::string_view op) const {
  const auto lo = std::lower_bound(rows_.begin(), rows_.end(), op,
                                   [](const auto& r, std::string_view name) { return r.first < name; });
  auto hi = lo;
  while (hi != rows_.end() && hi->first == op) ++hi;
  return {lo, hi};
}

const LoweringTable::Row* LoweringTable::pseudo(std::string_view name) const {
  for (const auto& [op, row] : rows_of(name))
    if (row.key.empty()) return &row;
  return nullptr;
}

const LoweringTable::Row* LoweringTable::find(const Inst& in, const std::vector<std::string>& context) const {
  std::string op = opcode_of(in);
  if (op == "barrier") op = "bar";
  std::vector<std::string> parts = key_parts(in);
  parts.insert(parts.end(), context.begin(), context.end());
  const Row* best = nullptr;
  size_t best_n = 0;
  for (const auto& [name, row] : rows_of(op)) {
    std::vector<std::string> left = parts;
    bool ok = true;
    for (const std::string& k : row.key) {
      auto it = std::find(left.begin(), left.end(), k);
      if (it == left.end()) {
        ok = false;
        break;
      }
      left.erase(it);
    }
    if (ok && (!best || row.key.size() > best_n)) best = &row, best_n = row.key.size();
  }
  return best;
}

// The half-precision forms the emulator executes (ptx/half_ops.cpp); moves,
// loads and stores of halves are plain 16/32-bit data.
static bool half_supported(const Inst& in) {
  auto half = [](Ty t) { return t == kF16 || t == kF16x2 || t == kBF16; };
  if (!half(in.type) && !half(in.type2)) return true;
  switch (in.op) {
    case Op::kWmmaLoad: case Op::kWmmaStore: case Op::kWmmaMma: case Op::kMma:
      return true;  // f16 fragments: the parser checked their forms (parser_mma.cpp)
    case Op::kMov: case Op::kLd: case Op::kLdu: case Op::kSt:
    case Op::kAdd: case Op::kSub: case Op::kMul: case Op::kFma: case Op::kNeg: case Op::kAbs:
    case Op::kMin: case Op::kMax:
      break;  // register operands only (PTX has no half-precision literals)
    case Op::kCvt:  // no packing cvt (two sources) and no round-to-integer in half precision
      return in.type != kF16x2 && in.type2 != kF16x2 && in.ops.size() == 2 &&
             !(half(in.type) && (in.mods & (kMRni | kMRzi | kMRmi | kMRpi)));
    case Op::kSetp:  // one predicate per value: not the f16x2 form
      if (in.type == kF16x2) return false;
      break;
    default:
      return false;
  }
  for (const Operand& o : in.ops)
    if (o.kind == Operand::kImm) return false;
  return true;
}

std::vector<const Function*> call_graph(const Module& m, const std::string& kernel) {
  const Function* fn = m.find(kernel);
  if (!fn || !fn->entry) throw PtxError(m.path, 0, 0, kernel, "no .entry kernel of this name in the module");
  std::vector<const Function*> order, path;
  collect(m, fn, order, path);
  // a call through a register may reach every function whose address the
  // module takes (recursion through one is caught when it happens)
  bool indirect = false;
  for (const Function* f : order)
    for (const Inst& in : f->insts) indirect |= in.op == Op::kCall && in.ops[0].kind == Operand::kReg;
  for (size_t k = 0; indirect && k < m.address_taken.size(); ++k)
    if (const Function* g = m.find(m.address_taken[k]); g && !g->entry &&
                                                         std::find(order.begin(), order.end(), g) == order.end())
      collect(m, g, order, path);
  for (const Function* f : order)
    if (const Function::Unsupported& u = f->unsupported; !u.detail.empty())
      throw PtxError(m.path, u.line, u.col, u.token,
                     u.detail + (f == fn ? " (in .entry " + kernel + "; the module's other kernels run)"
                                         : " (in .func " + f->name + ", which .entry " + kernel + " calls)"));
  return order;
}

namespace {

// What the emulator does not run yet, refused here with the instruction's
// position; bar.arrive gets its flag.
void check_supported(const std::string& path, Inst& in) {
  auto unsupported = [&](const std::string& what) {
    throw PtxError(path, in.line, in.col, in.spelling, what + " is not supported by the PTX emulator yet");
  };
  if (is_texture_inst(in.op)) prepare_texture_inst(in, path);
  if (!half_supported(in)) unsupported("this f16/bf16 instruction");
  if (in.op == Op::kBar && in.spelling.find(".arrive") != std::string::npos) {
    if (in.ops.size() < 2) throw PtxError(path, in.line, in.col, in.spelling, "bar.arrive needs a thread count");
    in.mods |= kMArrive;
  }
}

// Immediates become the raw bits of the type their slot reads (an integer
// slot, such as a shift count, reads .u32 whatever the instruction's type).
void encode_immediates(Inst& in) {
  for (size_t k = 0; k < in.ops.size(); ++k) {
    Operand& o = in.ops[k];
    if (o.kind != Operand::kImm) continue;
    Ty t = in.op == Op::kCvt && k >= 1 ? in.type2 : in.type;
    const bool int_slot = op_grammar(in.op).kind[k] == 'u';
    o.imm = int64_t(imm_bits(o, int_slot ? kU32 : t));
    o.lit = 0;
  }
}

// CUDA's limits; also keeps a hostile module from asking for gigabytes per thread.
void check_limits(const Program& p, const std::string& path, const Function& fn, const std::string& kernel) {
  if (p.local_bytes > 512 * 1024)
    throw PtxError(path, fn.line, 0, kernel, "more than 512 KiB of local memory per thread");
  if (p.shared_bytes > 1024 * 1024)
    throw PtxError(path, fn.line, 0, kernel, "more than 1 MiB of static shared memory");
}

// Atomics and volatile / acquire / relaxed loads: what a spin loop polls.
bool polls_memory(const Inst& in) {
  return in.op == Op::kAtom ||
         (in.op == Op::kLd && ((in.mods & kMVolatile) || in.spelling.find(".acquire") != std::string::npos ||
                               in.spelling.find(".relaxed") != std::string::npos));
}

// Marks the back edges of loops that poll memory: where the spin-lock rule
// of the emulator applies.
void mark_spin_loops(std::vector<Inst>& insts) {
  for (size_t i = 0; i < insts.size(); ++i) {
    Inst& br = insts[i];
    if (br.op != Op::kBra || br.ops[0].imm > int64_t(i)) continue;
    for (size_t j = size_t(br.ops[0].imm); j <= i; ++j)
      if (polls_memory(insts[j])) {
        br.mods |= kMSpin;
        break;
      }
  }
}

void record_templates(Program& p, const isa::IsaTable& isa, const LoweringTable& lowering, RecordMode records,
                      const SassGuide* sass) {
  if (records == RecordMode::kPtx)
    ptx_class_templates(p, isa, lowering);  // ptx/ptx_records.cpp
  else
    lowered_templates(p, isa, lowering);
  if (sass) apply_sass_guide(p, isa, *sass);  // records="sass": replaces the templates
}

}  // namespace

std::shared_ptr<const Program> prepare(std::shared_ptr<const Module> module, const std::string& kernel,
                                       const isa::IsaTable& isa, const LoweringTable& lowering,
                                       uint32_t binary_version, RecordMode records, const SassGuide* sass) {
  const Function* fn = module->find(kernel);
  if (!fn || !fn->entry) throw PtxError(module->path, 0, 0, kernel, "no .entry kernel of this name in the module");
  auto p = std::make_shared<Program>();
  p->module = module;
  p->fn = fn;
  p->binary_version = binary_version;
  link(*module, fn, *p);
  for (Inst& in : p->insts) {
    check_supported(module->path, in);
    encode_immediates(in);
  }
  check_limits(*p, module->path, *fn, kernel);
  mark_spin_loops(p->insts);
  // lowered mode only: ptx mode runs GPGPU-Sim's PTX as written, and
  // SASS-guided mode records ptxas's own EXIT per PTX line
  if (records == RecordMode::kLowered && !sass) branches_to_exit(p->insts);
  p->ipdom = post_dominators(p->insts);
  record_templates(*p, isa, lowering, records, sass);
  return p;
}

}  // namespace accelsim::ptx
