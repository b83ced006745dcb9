// Policies chosen by name: a table of entries with a `name` member, looked
// up once at construction. An unknown name is a ConfigError that lists the
// known ones, so a typo in a config says what would have worked. The table is
// either a constant array beside the lookup, or a SelfRegistry that each
// implementation's own .cpp adds itself to.
#pragma once
#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

// Implementations that register themselves (as Ramulator 2's do): each one's
// .cpp defines a static `Registration`, so adding an implementation is adding
// a file, and no list elsewhere names it. The table is filled while the
// library loads (static initialisation, on one thread, before any simulator
// exists) and only read after that; it is kept sorted by name, so what it
// lists does not depend on link order. The core library is linked whole
// (CMakeLists.txt) so that no registration is dropped by the linker.
template <class Entry>
class SelfRegistry {
 public:
  struct Registration {
    explicit Registration(const Entry& e) {
      std::vector<Entry>& t = table();
      auto at = std::find_if(t.begin(), t.end(), [&](const Entry& x) { return std::string_view(e.name) < x.name; });
      t.insert(at, e);
    }
  };
  static std::span<const Entry> entries() { return table(); }
  // `key` is the config parameter that carried the name (for the error).
  static const Entry& find(std::string_view name, const char* key) {
    if (table().empty())
      throw Error(std::string("no ") + key + " implementation is linked in (link accelsim_core whole)");
    return find_by_name(entries(), name, key);
  }

 private:
  static std::vector<Entry>& table() {
    static std::vector<Entry> t;
    return t;
  }
};

}  // namespace accelsim
