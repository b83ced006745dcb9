// Helpers for the trace reader tests: small traces written to a temp folder.
#pragma once
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "trace/trace_reader.h"

namespace accelsim::testing {

inline std::string isa_dir() { return std::string(ACCELSIM_SOURCE_DIR) + "/configs/isa"; }

inline const isa::IsaRegistry& isa_registry() {
  static const isa::IsaRegistry registry(isa_dir());  // immutable, shared by the tests
  return registry;
}

// Writes `text` to a fresh file under the temp folder; returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / "accelsim_trace_tests";
  std::filesystem::create_directories(dir);
  auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A reader over `text`, written to the temp folder as `name` (the reader is
// neither copied nor moved: returned by guaranteed elision).
inline trace::KernelTraceReader temp_reader(const std::string& name, const std::string& text) {
  return trace::KernelTraceReader(write_temp(name, text), isa_registry());
}

// A v<version> header for a 1-block kernel of `threads` threads.
inline std::string header(int version, int threads = 32, bool lineinfo = false) {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (" + std::to_string(threads) +
         ",1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 70\n-cuda stream id = 0\n"
         "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0002000000\n"
         "-accelsim tracer version = " + std::to_string(version) + "\n-enable lineinfo = " +
         (lineinfo ? "1" : "0") + "\n\n#traces format = ...\n\n";
}

// One block holding warp 0 with the given instruction lines (EXIT appended).
inline std::string one_warp(const std::string& body, int ninsts) {
  return "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = " + std::to_string(ninsts + 1) + "\n" + body +
         "00f0 ffffffff 0 EXIT 0 0\n\n#END_TB\n";
}

}  // namespace accelsim::testing
