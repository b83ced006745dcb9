#include "config/config_text.h"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <vector>

#include "base/error.h"

namespace accelsim::config {

namespace {

std::string real_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <class T>
std::string value_text(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "1" : "0";
  else if constexpr (std::is_same_v<T, double>) return real_text(v);
  else if constexpr (std::is_same_v<T, std::string>) return v;
  else return std::to_string(v);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

[[noreturn]] void fail(const std::string& where, size_t line, const std::string& key, const std::string& what) {
  throw ConfigError(key, where + ":" + std::to_string(line) + ": " + what);
}

template <class T>
void parse_value(const std::string& s, T& out, const std::string& where, size_t line, const std::string& key) {
  if constexpr (std::is_same_v<T, std::string>) {
    out = s;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (s != "0" && s != "1") fail(where, line, key, "'" + s + "' is not 0 or 1");
    out = s == "1";
  } else if constexpr (std::is_same_v<T, double>) {
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') fail(where, line, key, "'" + s + "' is not a number");
  } else {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || p != s.data() + s.size()) fail(where, line, key, "'" + s + "' is not an integer");
  }
}

// A structured line: exec_unit, opcode_unit, shmem_carveouts.
bool parse_structured(const std::string& key, const std::vector<std::string>& f, GpuConfig& cfg,
                      const std::string& where, size_t line) {
  if (key == "exec_unit") {
    if (f.size() != 7) fail(where, line, key, "expected: exec_unit NAME UNITS LATENCY INITIATION LANES CLASSES");
    ExecUnitConfig e;
    e.name = f[1];
    parse_value(f[2], e.units_per_sm, where, line, key);
    parse_value(f[3], e.latency, where, line, key);
    parse_value(f[4], e.initiation, where, line, key);
    parse_value(f[5], e.lanes, where, line, key);
    e.classes = split(f[6], ',');
    cfg.exec_units.push_back(std::move(e));
  } else if (key == "opcode_unit") {
    if (f.size() != 3) fail(where, line, key, "expected: opcode_unit OPCODE UNIT");
    cfg.opcode_units.emplace_back(f[1], f[2]);
  } else if (key == "shmem_carveouts") {
    cfg.shmem_carveouts.clear();
    for (size_t i = 1; i < f.size(); ++i) {
      int64_t v = 0;
      parse_value(f[i], v, where, line, key);
      cfg.shmem_carveouts.push_back(v);
    }
  } else {
    return false;
  }
  return true;
}

bool parse_scalar(const std::string& key, const std::string& value, GpuConfig& cfg, const std::string& where,
                  size_t line) {
  if (key == "name") {
    cfg.name = value;
    return true;
  }
#define P(name, kind, def, mn, mx, choices, doc) \
  if (key == #name) {                            \
    parse_value(value, cfg.name, where, line, key); \
    return true;                                 \
  }
#include "config/params.def"
#undef P
  return false;
}

}  // namespace

std::string to_text(const GpuConfig& cfg) {
  std::ostringstream o;
  o << "accelsim-config " << kConfigTextVersion << "\n";
  o << "name " << cfg.name << "\n";
#define P(name, kind, def, mn, mx, choices, doc) o << #name " " << value_text(cfg.name) << "\n";
#include "config/params.def"
#undef P
  for (const ExecUnitConfig& e : cfg.exec_units) {
    o << "exec_unit " << e.name << " " << e.units_per_sm << " " << e.latency << " " << e.initiation << " " << e.lanes
      << " ";
    for (size_t i = 0; i < e.classes.size(); ++i) o << (i ? "," : "") << e.classes[i];
    o << "\n";
  }
  for (const auto& [op, unit] : cfg.opcode_units) o << "opcode_unit " << op << " " << unit << "\n";
  o << "shmem_carveouts";
  for (int64_t v : cfg.shmem_carveouts) o << " " << v;
  o << "\n";
  return o.str();
}

GpuConfig from_text(const std::string& text, const std::string& where) {
  GpuConfig cfg;
  std::istringstream in(text);
  std::string line;
  size_t n = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split(line, ' ');
    if (!header) {
      int version = 0;
      if (f.size() != 2 || f[0] != "accelsim-config") fail(where, n, "version", "not an accelsim config text");
      parse_value(f[1], version, where, n, "version");
      if (version < 1 || version > kConfigTextVersion)
        fail(where, n, "version", "config text version " + f[1] + " (this build reads 1.." +
                                      std::to_string(kConfigTextVersion) + ")");
      header = true;
      continue;
    }
    if (parse_structured(f[0], f, cfg, where, n)) continue;
    const size_t sp = line.find(' ');
    const std::string value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (!parse_scalar(f[0], value, cfg, where, n)) fail(where, n, f[0], "unknown key '" + f[0] + "'");
  }
  if (!header) fail(where, n, "version", "empty config text");
  validate(cfg);
  return cfg;
}

}  // namespace accelsim::config
