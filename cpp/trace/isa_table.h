// Opcode tables per SM generation, loaded from data files in configs/isa/.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/inst_record.h"

namespace accelsim::trace {

struct OpcodeInfo {
  std::string name;      // base mnemonic, e.g. "LDG"
  uint8_t unit = kUnitAlu;
  uint8_t mem_space = kMemNone;
  uint8_t flags = 0;     // kFlagLoad / kFlagStore / kFlagAtomic
};

class IsaTable {
 public:
  // Loads one table file; throws TraceError naming the file and line.
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
  // Map (or re-map) an opcode to a unit class by name (config overrides).
  void set_unit(std::string_view mnemonic, std::string_view unit);

 private:
  std::string name_, path_;
  std::vector<OpcodeInfo> opcodes_;
  std::unordered_map<std::string, uint16_t> index_;
  std::vector<std::string> unit_names_;
  uint8_t unit_id(std::string_view unit);
  friend class IsaRegistry;
};

// All tables of an ISA folder, and which binary versions use which table.
// Immutable after construction: safe to share between simulators and threads.
class IsaRegistry {
 public:
  // Reads <dir>/versions.txt and the tables it names; throws TraceError.
  explicit IsaRegistry(const std::string& dir);
  // Table for a "-binary version" value; throws TraceError (path, line,
  // "binary version") if unsupported.
  const IsaTable& for_version(uint32_t binary_version, const std::string& trace_path,
                              int64_t line) const;

 private:
  std::vector<std::shared_ptr<IsaTable>> tables_;
  std::unordered_map<uint32_t, std::shared_ptr<IsaTable>> by_version_;
  std::string dir_;
};

}  // namespace accelsim::trace
