#include "cuobjdump.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "base/error.h"

namespace accelsim::cudart {

namespace {

std::string quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

std::string run(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(command.c_str(), "r"), pclose);
  if (!p) throw Error("cannot run " + command);
  std::string out;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p.get())) > 0;) out.append(buf, n);
  return out;
}

}  // namespace

// Output: blocks "Fatbin ptx code:", "=====", "arch = sm_75", more
// "key = value" lines, then the PTX text up to the next "Fatbin " line.
std::vector<ptx::PtxText> cuobjdump_ptx(const std::string& tool, const std::string& file) {
  std::istringstream in(run(quote(tool) + " -ptx " + quote(file) + " 2>/dev/null"));
  std::vector<ptx::PtxText> out;
  std::string line;
  bool in_ptx = false, in_header = false;
  while (std::getline(in, line)) {
    if (line.rfind("Fatbin ", 0) == 0) {
      in_ptx = line.rfind("Fatbin ptx code:", 0) == 0;
      in_header = in_ptx;
      if (in_ptx) out.push_back({});
      continue;
    }
    if (!in_ptx) continue;
    if (in_header) {
      if (line.rfind("arch = sm_", 0) == 0) out.back().arch = uint32_t(std::atoi(line.c_str() + 10));
      if (line.find(" = ") != std::string::npos || line.rfind("====", 0) == 0 || line == "compressed" ||
          line.empty())
        continue;
      in_header = false;
    }
    out.back().text += line + "\n";
  }
  if (out.empty()) throw Error(tool + " -ptx " + file + " printed no PTX");
  return out;
}

}  // namespace accelsim::cudart
