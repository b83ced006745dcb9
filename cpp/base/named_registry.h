// Policies chosen by name: a static table of entries with a `name` member,
// looked up once at construction. An unknown name is a ConfigError that lists
// the known ones, so a typo in a config says what would have worked.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "base/error.h"

namespace accelsim {

template <class T>
std::string known_names(std::span<const T> table) {
  std::string out;
  for (const T& e : table) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

// `key` is the config parameter that carried the name (for the error).
template <class T>
const T& find_by_name(std::span<const T> table, std::string_view name, const char* key) {
  for (const T& e : table)
    if (name == e.name) return e;
  throw ConfigError(key, "unknown " + std::string(key) + " '" + std::string(name) +
                             "'; known: " + known_names(table));
}

}  // namespace accelsim
