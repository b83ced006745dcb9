// A short end-to-end simulation for the sanitizer build (scripts/sanitize.sh):
// reads a config dumped by Python (one "param NAME VALUE" per scalar plus the
// structured parts), runs a trace with a cycle budget and prints per-kernel
// cycles. Built only by the sanitizer script, against the instrumented core.
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include "config/gpu_config.h"
#include "sim/simulator.h"

using accelsim::config::GpuConfig;

namespace {

void assign(int64_t& out, const std::string& v) { out = std::stoll(v); }
void assign(double& out, const std::string& v) { out = std::stod(v); }
void assign(bool& out, const std::string& v) { out = v == "1" || v == "true" || v == "True"; }
void assign(std::string& out, const std::string& v) { out = v; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

// Lines: "param NAME VALUE", "unit NAME UNITS LATENCY INITIATION LANES C1,C2",
// "opcode OP UNIT", "carveouts A,B,C".
GpuConfig read_config(const std::string& path) {
  GpuConfig cfg;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what, name;
    words >> what >> name;
    if (what == "param") {
      std::string value;
      std::getline(words >> std::ws, value);
      bool known = false;
#define P(pname, kind, def, mn, mx, choices, doc) \
  if (name == #pname) { assign(cfg.pname, value); known = true; }
#include "config/params.def"
#undef P
      if (name == "name") { cfg.name = value; known = true; }
      if (!known) throw std::runtime_error("unknown parameter " + name);
    } else if (what == "unit") {
      accelsim::config::ExecUnitConfig u;
      std::string classes;
      u.name = name;
      words >> u.units_per_sm >> u.latency >> u.initiation >> u.lanes >> classes;
      u.classes = split(classes, ',');
      cfg.exec_units.push_back(u);
    } else if (what == "opcode") {
      std::string unit;
      words >> unit;
      cfg.opcode_units.emplace_back(name, unit);
    } else if (what == "carveouts") {
      for (const auto& v : split(name, ',')) cfg.shmem_carveouts.push_back(std::stoll(v));
    }
  }
  accelsim::config::validate(cfg);
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s CONFIG_DUMP ISA_DIR TRACE [MAX_CYCLES]\n", argv[0]);
    return 2;
  }
  try {
    accelsim::sim::Simulator sim(read_config(argv[1]), argv[2]);
    accelsim::sim::RunOptions opts;
    if (argc > 4) opts.max_cycles = std::stoull(argv[4]);
    auto result = sim.run(argv[3], opts);
    for (const auto& k : result.kernels)
      std::printf("kernel %u %s cycles %llu\n", k.id, k.skipped ? "skipped" : "ran",
                  (unsigned long long)(k.end_cycle - k.start_cycle));
    std::printf("total_cycles %llu completed %d\n", (unsigned long long)result.total_cycles,
                int(result.completed));
  } catch (const std::exception& e) {
    // A clean error is an acceptable outcome for a bad input; the exit code says which.
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
  return 0;
}
