#include "sim/kernel_source.h"

namespace accelsim::sim {

const std::vector<std::string>& default_unit_class_names() {
  static const std::vector<std::string> names = {  // immutable table
      "alu", "sp", "int", "dp", "sfu", "tensor", "branch", "mem", "exit", "barrier", "nop", "tex"};
  return names;
}

}  // namespace accelsim::sim
