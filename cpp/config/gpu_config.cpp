#include "config/gpu_config.h"

#include <string_view>
#include <tuple>

#include "base/error.h"

namespace accelsim::config {

namespace {
constexpr ParamDecl kDecls[] = {
#define P(name, kind, def, mn, mx, choices, doc) \
  {#name, ParamKind::kind, double(mn), double(mx), choices, doc},
#include "config/params.def"
#undef P
};

bool choice_allowed(std::string_view choices, std::string_view value) {
  size_t start = 0;
  while (start <= choices.size()) {
    size_t bar = choices.find('|', start);
    if (bar == std::string_view::npos) bar = choices.size();
    if (choices.substr(start, bar - start) == value) return true;
    start = bar + 1;
  }
  return false;
}

void check_range(const char* key, double value, double mn, double mx) {
  if (value < mn || value > mx)
    throw ConfigError(key, "value " + std::to_string(value) + " outside [" +
                               std::to_string(mn) + ", " + std::to_string(mx) + "]");
}

void check_value(const ParamDecl& d, double v) { check_range(d.name, v, d.min, d.max); }
void check_value(const ParamDecl&, bool) {}
void check_value(const ParamDecl& d, const std::string& v) {
  if (!choice_allowed(d.choices, v))
    throw ConfigError(d.name, "'" + v + "' is not one of " + d.choices);
}
void check_value(const ParamDecl& d, int64_t v) { check_value(d, double(v)); }

// The caches are built per run, deep inside the GPU; their geometry is checked
// here too so a bad config fails when it is loaded, under the user's keys.
void check_cache_geometry(const GpuConfig& cfg) {
  const int64_t l1_set = cfg.l1d_line * cfg.l1d_assoc;
  if (cfg.l1d_size > 0 && cfg.l1d_size / l1_set == 0)  // 0 B: no L1D at all
    throw ConfigError("l1d_size", std::to_string(cfg.l1d_size) + " B holds no whole set of l1d_assoc " +
                                      std::to_string(cfg.l1d_assoc) + " x l1d_line " +
                                      std::to_string(cfg.l1d_line) + " B");
  if (cfg.memory_model != "detailed") return;  // L2 slices exist only in the detailed model
  const int64_t slices = cfg.memory_partitions * cfg.l2_slices_per_partition;
  const int64_t l2_set = cfg.l2_line * cfg.l2_assoc;
  const int64_t per_slice = cfg.l2_size / slices;
  if (cfg.l2_size % slices != 0 || per_slice % l2_set != 0 || per_slice == 0)
    throw ConfigError("l2_size", std::to_string(cfg.l2_size) + " B split over " + std::to_string(slices) +
                                     " L2 slices (memory_partitions x l2_slices_per_partition) is " +
                                     std::to_string(per_slice) + " B per slice, not a whole number of sets of "
                                     "l2_assoc " + std::to_string(cfg.l2_assoc) + " x l2_line " +
                                     std::to_string(cfg.l2_line) + " B");
}
}  // namespace

std::span<const ParamDecl> param_decls() { return kDecls; }

std::span<const ExecUnitFieldDecl> exec_unit_field_decls() {
  static constexpr ExecUnitFieldDecl kFields[] = {
#define U(field, kind, def, mn, mx, required, doc) {#field, ParamKind::kind, def, mn, mx, required, doc},
#include "config/exec_unit_fields.def"
#undef U
  };
  return kFields;
}

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::COUNT: return "count";
    case ParamKind::CYCLES: return "cycles";
    case ParamKind::BYTES: return "bytes";
    case ParamKind::MHZ: return "MHz";
    case ParamKind::REAL: return "real";
    case ParamKind::PERCENT: return "percent";
    case ParamKind::BOOL: return "bool";
    case ParamKind::CHOICE: return "choice";
  }
  return "?";
}

void validate(const GpuConfig& cfg) {
  size_t i = 0;
#define P(name, kind, def, mn, mx, choices, doc) check_value(kDecls[i++], cfg.name);
#include "config/params.def"
#undef P
  for (const auto& u : cfg.exec_units) {
    std::string key = "exec_units." + u.name;
    if (u.name.empty()) throw ConfigError("exec_units", "a unit has no name");
#define U(field, kind, def, mn, mx, required, doc) check_range((key + "." #field).c_str(), double(u.field), mn, mx);
#include "config/exec_unit_fields.def"
#undef U
    if (u.classes.empty()) throw ConfigError(key + ".classes", "a unit must execute at least one class");
  }
  check_cache_geometry(cfg);
  if (cfg.l1d_line % cfg.l1d_sector != 0)
    throw ConfigError("l1d_sector", "must divide l1d_line");
  if (cfg.l2_line % cfg.l2_sector != 0)
    throw ConfigError("l2_sector", "must divide l2_line");
  // Sectors are whole 32 B granules (the unit below L1); sector = line is a
  // non-sectored cache. Lines are at most 128 B (the per-line byte masks).
  for (auto [key, line, sector] : {std::tuple{"l1d", cfg.l1d_line, cfg.l1d_sector},
                                   std::tuple{"l2", cfg.l2_line, cfg.l2_sector}}) {
    if (line > 128 || (line & (line - 1)))
      throw ConfigError(std::string(key) + "_line", "must be a power of two of at most 128 B, got " +
                                                        std::to_string(line) + " B");
    if (sector & (sector - 1))
      throw ConfigError(std::string(key) + "_sector", "must be a power of two (32 B .. the line size), got " +
                                                          std::to_string(sector) + " B");
  }
}

}  // namespace accelsim::config
