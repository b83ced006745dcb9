// Opcode tables per SM generation, loaded from data files in configs/isa/.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "isa/inst_record.h"

namespace accelsim::isa {

// Lets the opcode index be searched with a string_view (no allocation per
// lookup on the decoding path).
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

struct OpcodeInfo {
  std::string name;      // base mnemonic, e.g. "LDG"
  uint8_t unit = kUnitAlu;
  uint8_t mem_space = kMemNone;
  uint8_t flags = 0;     // kFlagLoad / kFlagStore / kFlagAtomic
};

class IsaTable {
 public:
  // Loads one table file (format: docs/trace_format.md, configs/isa/README);
  // throws TraceError naming the file and line.
  static IsaTable load(const std::string& path);

  const std::string& name() const { return name_; }        // e.g. "sm_70"
  const std::string& path() const { return path_; }
  // Id of a base mnemonic, or -1 if the table does not define it.
  int find(std::string_view mnemonic) const;
  const OpcodeInfo& info(uint16_t id) const { return opcodes_[id]; }
  size_t size() const { return opcodes_.size(); }
  // Unit class names: the fixed ones (alu, sp, int, dp, sfu, tensor, branch,
  // mem, exit, barrier, nop, tex) then any custom names the table introduced.
  const std::vector<std::string>& unit_names() const { return unit_names_; }
  // Id of a unit class name, or -1 if the table does not know it.
  int find_unit(std::string_view unit) const;
  // Map (or re-map) an opcode to a unit class by name (config overrides); a
  // new class name gets the next custom id. Throws TraceError for an opcode
  // the table does not define.
  void set_unit(std::string_view mnemonic, std::string_view unit);
  // Id of EXIT (used to check that every warp exits), -1 if absent.
  int exit_opcode() const { return find("EXIT"); }

 private:
  std::string name_, path_;
  std::vector<OpcodeInfo> opcodes_;
  std::unordered_map<std::string, uint16_t, StringHash, std::equal_to<>> index_;
  std::vector<std::string> unit_names_;
  uint8_t unit_id(std::string_view unit);
  void load_into(const std::string& path, int depth);
  void define(std::string_view line, const std::string& path, int64_t line_no);
  friend class IsaRegistry;
};

// All tables of an ISA folder, and which binary versions use which table.
// Immutable after construction: safe to share between simulators and threads.
class IsaRegistry {
 public:
  // Reads <dir>/versions.txt and the tables it names; throws TraceError.
  explicit IsaRegistry(const std::string& dir);
  // Same, then maps opcodes to unit classes in every table that defines them
  // (a config's opcode -> unit overrides); an opcode no table defines is a
  // TraceError (field "opcode").
  IsaRegistry(const std::string& dir,
              const std::vector<std::pair<std::string, std::string>>& unit_overrides);
  // Table for a "-binary version" value; throws TraceError (path, line,
  // "binary version") if unsupported.
  const IsaTable& for_version(uint32_t binary_version, const std::string& trace_path,
                              int64_t line) const;
  // Supported binary versions, ascending.
  std::vector<uint32_t> versions() const;
  const std::string& dir() const { return dir_; }

 private:
  std::vector<std::shared_ptr<IsaTable>> tables_;
  std::unordered_map<uint32_t, std::shared_ptr<IsaTable>> by_version_;
  std::string dir_;
};

}  // namespace accelsim::isa
