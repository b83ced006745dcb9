// Loading of the ISA table data files (configs/isa/*.isa, versions.txt).
#include "isa/isa_table.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "base/error.h"
#include "base/line_source.h"
#include "base/tokenizer.h"

namespace accelsim::isa {

namespace {

const char* const kFixedUnits[] = {"alu", "sp",     "int",     "dp",  "sfu", "tensor",
                                   "branch", "mem", "exit", "barrier", "nop", "tex"};

const char* const kSpaces[] = {"none", "global", "local", "shared", "const", "tex", "generic"};

std::string folder_of(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

std::string join(const std::string& dir, std::string_view name) {
  std::filesystem::path p(name);
  if (p.is_absolute() || dir.empty()) return p.string();
  return (std::filesystem::path(dir) / p).string();
}

int space_id(std::string_view s) {
  for (int i = 0; i < int(std::size(kSpaces)); ++i)
    if (s == kSpaces[i]) return i;
  return -1;
}

int flag_bit(std::string_view s) {
  if (s == "load") return kFlagLoad;
  if (s == "store") return kFlagStore;
  if (s == "atomic") return kFlagAtomic;
  return -1;
}

bool valid_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Next line with content, '#' comment cut off: the table files and
// versions.txt share this layout. False at end of file.
bool next_content_line(LineSource& src, std::string_view& line) {
  while (src.next(line)) {
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    if (!Tokens(line).done()) return true;
  }
  return false;
}

}  // namespace

IsaTable IsaTable::load(const std::string& path) {
  IsaTable t;
  t.path_ = path;
  t.name_ = std::filesystem::path(path).stem().string();
  for (const char* u : kFixedUnits) t.unit_names_.emplace_back(u);
  t.load_into(path, 0);
  return t;
}

void IsaTable::load_into(const std::string& path, int depth) {
  if (depth > 8) throw TraceError(path, 0, "include", "includes nested deeper than 8 (a cycle?)");
  LineSource src(path);
  std::string_view line;
  while (next_content_line(src, line)) {
    Tokens peek(line);
    if (peek.next() == "include") {
      std::string_view target = trim(peek.rest());
      if (target.empty()) throw TraceError(path, src.line_number(), "include", "include needs a file name");
      load_into(join(folder_of(path), target), depth + 1);
      continue;
    }
    define(line, path, src.line_number());
  }
}

// One row: OPCODE UNIT [SPACE [FLAG ...]]; a later row for the same opcode
// replaces the earlier one (so a table can include another and adjust it).
void IsaTable::define(std::string_view line, const std::string& path, int64_t line_no) {
  Tokens tok(line);
  std::string_view op = tok.next(), unit = tok.next(), space = tok.next();
  if (!valid_name(op)) throw TraceError(path, line_no, "opcode", "bad opcode name '" + printable(op) + "'");
  if (!valid_name(unit))
    throw TraceError(path, line_no, "unit", "opcode " + printable(op) + " needs a unit class name");
  OpcodeInfo info;
  info.name = std::string(op);
  info.unit = unit_id(unit);
  if (!space.empty()) {
    int s = space_id(space);
    if (s < 0)
      throw TraceError(path, line_no, "space",
                       "unknown memory space '" + printable(space) +
                           "' (none, global, local, shared, const, tex, generic)");
    info.mem_space = uint8_t(s);
  }
  for (std::string_view f = tok.next(); !f.empty(); f = tok.next()) {
    int bit = flag_bit(f);
    if (bit < 0)
      throw TraceError(path, line_no, "flags", "unknown flag '" + printable(f) + "' (load, store, atomic)");
    info.flags = uint8_t(info.flags | bit);
  }
  auto it = index_.find(op);
  if (it != index_.end()) {
    opcodes_[it->second] = std::move(info);
    return;
  }
  if (opcodes_.size() >= 0xFFFF) throw TraceError(path, line_no, "opcode", "too many opcodes");
  index_.emplace(std::string(op), uint16_t(opcodes_.size()));
  opcodes_.push_back(std::move(info));
}

int IsaTable::find(std::string_view mnemonic) const {
  auto it = index_.find(mnemonic);
  return it == index_.end() ? -1 : int(it->second);
}

int IsaTable::find_unit(std::string_view unit) const {
  for (size_t i = 0; i < unit_names_.size(); ++i)
    if (unit_names_[i] == unit) return int(i);
  return -1;
}

uint8_t IsaTable::unit_id(std::string_view unit) {
  int id = find_unit(unit);
  if (id >= 0) return uint8_t(id);
  if (unit_names_.size() >= 255) throw TraceError(path_, 0, "unit", "too many unit classes");
  unit_names_.emplace_back(unit);
  return uint8_t(unit_names_.size() - 1);
}

void IsaTable::set_unit(std::string_view mnemonic, std::string_view unit) {
  int id = find(mnemonic);
  if (id < 0)
    throw TraceError(path_, 0, "opcode",
                     "cannot map unknown opcode '" + printable(mnemonic) + "' to a unit");
  if (!valid_name(unit)) throw TraceError(path_, 0, "unit", "bad unit class name '" + printable(unit) + "'");
  opcodes_[size_t(id)].unit = unit_id(unit);
}

// versions.txt: lines "<binary version> <table file>", '#' comments.
IsaRegistry::IsaRegistry(const std::string& dir) : dir_(dir) {
  std::string list = join(dir, "versions.txt");
  LineSource src(list);
  std::unordered_map<std::string, std::shared_ptr<IsaTable>> loaded;
  std::string_view line;
  while (next_content_line(src, line)) {
    Tokens tok(line);
    uint32_t version;
    std::string_view v = tok.next(), file = tok.next();
    if (!parse_u32(v, version))
      throw TraceError(list, src.line_number(), "binary version", "not a number: '" + printable(v) + "'");
    if (file.empty() || !tok.done())
      throw TraceError(list, src.line_number(), "table", "expected '<version> <table file>'");
    std::string key(file);
    auto& table = loaded[key];
    if (!table) {
      table = std::make_shared<IsaTable>(IsaTable::load(join(dir, file)));
      tables_.push_back(table);
    }
    by_version_[version] = table;
  }
}

IsaRegistry::IsaRegistry(const std::string& dir,
                         const std::vector<std::pair<std::string, std::string>>& unit_overrides)
    : IsaRegistry(dir) {
  for (const auto& [opcode, unit] : unit_overrides) {
    bool found = false;
    for (auto& table : tables_) {
      if (table->find(opcode) < 0) continue;
      table->set_unit(opcode, unit);
      found = true;
    }
    if (!found)
      throw TraceError(join(dir, "versions.txt"), 0, "opcode",
                       "unit override for '" + printable(opcode) + "', which no ISA table defines");
  }
}

std::vector<uint32_t> IsaRegistry::versions() const {
  std::vector<uint32_t> v;
  for (const auto& kv : by_version_) v.push_back(kv.first);
  std::sort(v.begin(), v.end());
  return v;
}

const IsaTable& IsaRegistry::for_version(uint32_t binary_version, const std::string& trace_path,
                                         int64_t line) const {
  auto it = by_version_.find(binary_version);
  if (it != by_version_.end()) return *it->second;
  std::string known;
  for (uint32_t v : versions()) known += (known.empty() ? "" : ", ") + std::to_string(v);
  throw TraceError(trace_path, line, "binary version",
                   "unsupported binary version " + std::to_string(binary_version) +
                       " (supported: " + known + "; tables in " + dir_ + ")");
}

}  // namespace accelsim::isa
