// The GPU configuration as the core sees it: a plain struct whose scalar
// fields come from params.def (declared once), plus the few structured parts.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace accelsim::config {

enum class ParamKind { COUNT, CYCLES, BYTES, MHZ, REAL, PERCENT, BOOL, CHOICE };

#define ACCELSIM_PARAM_TYPE_COUNT int64_t
#define ACCELSIM_PARAM_TYPE_CYCLES int64_t
#define ACCELSIM_PARAM_TYPE_BYTES int64_t
#define ACCELSIM_PARAM_TYPE_MHZ double
#define ACCELSIM_PARAM_TYPE_REAL double
#define ACCELSIM_PARAM_TYPE_PERCENT double
#define ACCELSIM_PARAM_TYPE_BOOL bool
#define ACCELSIM_PARAM_TYPE_CHOICE std::string

// One execution unit kind. The ISA tables name a unit class per opcode; a unit
// executes the classes it lists, so a new unit is a config entry plus ISA rows.
// Its numeric fields are declared in exec_unit_fields.def.
struct ExecUnitConfig {
  std::string name;
#define U(field, kind, def, mn, mx, required, doc) int64_t field = def;
#include "config/exec_unit_fields.def"
#undef U
  std::vector<std::string> classes;
};

struct ExecUnitFieldDecl {
  const char* name;
  ParamKind kind;
  int64_t default_value;
  double min;
  double max;
  bool required;  // a config entry must give it (else the default)
  const char* doc;
};
std::span<const ExecUnitFieldDecl> exec_unit_field_decls();

struct GpuConfig {
  std::string name = "custom";
#define P(name, kind, def, mn, mx, choices, doc) ACCELSIM_PARAM_TYPE_##kind name = def;
#include "config/params.def"
#undef P
  std::vector<ExecUnitConfig> exec_units;
  // ISA-table overrides: opcode (first '.'-token) -> unit class.
  std::vector<std::pair<std::string, std::string>> opcode_units;
  // Shared-memory carve-outs (bytes) the adaptive split may choose from.
  std::vector<int64_t> shmem_carveouts;
};

struct ParamDecl {
  const char* name;
  ParamKind kind;
  double min;
  double max;
  const char* choices;  // '|'-separated, CHOICE only
  const char* doc;
};

std::span<const ParamDecl> param_decls();
const char* kind_name(ParamKind kind);

// Range, choice and consistency checks; throws accelsim::ConfigError.
void validate(const GpuConfig& cfg);

}  // namespace accelsim::config
