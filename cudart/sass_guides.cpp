#include "sass_guides.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/error.h"

namespace accelsim::cudart {

uint64_t fnv1a64(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::map<std::string, KernelGuide> read_sass_guides(const std::string& dir, const std::string& ptx_text) {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.txt", static_cast<unsigned long long>(fnv1a64(ptx_text)));
  const std::string path = dir + "/" + name;
  std::ifstream in(path);
  if (!in)
    throw Error(path + ": no SASS guide for this PTX (records=sass needs the launcher to see every module: "
                       "is it in a library the program loads?)");
  std::map<std::string, KernelGuide> out;
  std::string line, source;
  std::shared_ptr<ptx::SassGuide> cur;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::istringstream f(line);
    std::string key;
    f >> key;
    if (n == 1 && line != "accelsim-sass-guide 1") throw Error(path + ":1: not an accelsim SASS guide (version 1)");
    if (key == "source") {
      std::getline(f >> std::ws, source);
    } else if (key == "kernel") {
      std::string kernel;
      KernelGuide g;
      if (!(f >> kernel >> g.registers >> g.static_shared)) throw Error(path + ":" + std::to_string(n) + ": bad kernel line");
      cur = std::make_shared<ptx::SassGuide>();
      cur->source = source;
      g.sass = cur;
      out[kernel] = g;
    } else if (key == "line") {
      uint32_t ptx_line = 0;
      if (!cur || !(f >> ptx_line)) throw Error(path + ":" + std::to_string(n) + ": bad line entry");
      auto& ops = cur->by_line[ptx_line];
      for (std::string op; f >> op;) ops.push_back(op);
    } else if (n > 1 && !key.empty()) {
      throw Error(path + ":" + std::to_string(n) + ": unknown entry '" + key + "'");
    }
  }
  return out;
}

}  // namespace accelsim::cudart
