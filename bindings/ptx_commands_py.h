// The typed PTX commands as the bindings hold them (register_ptx_commands.cpp).
#pragma once
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/ptx_commands.h"

namespace accelsim::bindings {

// A copy and, for a device-to-host copy into a host array, that array and
// the buffer the run delivers into (the run holds no GIL to write the array).
struct PtxCopy {
  sim::CopyCommand cmd;
  pybind11::object host = pybind11::none();
  std::shared_ptr<std::string> buf;
  bool fill = false;  // a memset riding on the copy's place in its stream
  // The delivered bytes into the host array (nothing for other copies).
  void fill_host() const;
};

// A list of PtxLaunch / PtxCopy objects as the commands the run takes;
// `fills` gets the copies whose host arrays fill_host() fills after it.
std::vector<sim::PtxCommand> ptx_commands(const pybind11::list& commands, std::vector<pybind11::object>& fills);

void register_ptx_commands(pybind11::module_& m);

}  // namespace accelsim::bindings
