// records="sass" under accelsim cuda: the launcher compiles every PTX text
// of the program with ptxas + nvdisasm (accelsim.ptx.sass_guided, in
// Python, before the program starts) and writes one guide file per text,
// named by the FNV-1a 64-bit hash of the text's bytes (hex). The runtime
// reads the guide of each module it loads:
//   accelsim-sass-guide 1
//   source <where the SASS came from>
//   kernel <name> <registers> <static shared bytes>
//   line <PTX line> <SASS opcode> ...        (for the kernel above; none: records nothing)
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ptx/sass_guided.h"

namespace accelsim::cudart {

struct KernelGuide {
  std::shared_ptr<const ptx::SassGuide> sass;
  uint32_t registers = 0;
  int64_t static_shared = -1;
};

uint64_t fnv1a64(const std::string& bytes);
// The guides of `dir`/<hash>.txt by kernel name; throws Error when the file
// is missing or malformed (naming it and the line).
std::map<std::string, KernelGuide> read_sass_guides(const std::string& dir, const std::string& ptx_text);

}  // namespace accelsim::cudart
