// Open-addressing map from an opcode spelling ("LDG.E.64.SYS") to what it
// means. A trace uses a few dozen spellings, looked up once per instruction,
// so this is a flat table with a cheap hash instead of std::unordered_map.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/inst_record.h"

namespace accelsim::trace {

// What one full opcode spelling means (table row + modifiers).
struct OpcodeSpelling {
  uint16_t id = 0;
  uint8_t unit = 0, mem_space = isa::kMemNone, access_bytes = 0, flags = 0;
  uint8_t lat_class = 0;  // isa::sass_lat_class of the spelling
};

class SpellingCache {
 public:
  static uint64_t hash(std::string_view s) {  // FNV-1a
    uint64_t h = 0xcbf29ce484222325ull;
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return h;
  }
  const OpcodeSpelling* find(std::string_view key, uint64_t h) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.hash == h && s.key == key) return &s.value;
    }
  }
  const OpcodeSpelling& insert(std::string_view key, uint64_t h, const OpcodeSpelling& value) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& s = place(h);
    s = Slot{std::string(key), h, value, true};
    ++used_;
    return s.value;
  }

 private:
  struct Slot {
    std::string key;
    uint64_t hash = 0;
    OpcodeSpelling value;
    bool used = false;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(64);
  size_t used_ = 0;

  Slot& place(uint64_t h) {
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    return slots_[i];
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (Slot& s : old)
      if (s.used) place(s.hash) = std::move(s);
  }
};

}  // namespace accelsim::trace
