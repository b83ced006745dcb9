// The program's result, written once at its end (or when it is stopped) as
// one JSON document the launcher turns into a SimResult. Format
// "accelsim-cuda-result", version 1 (docs/cuda_apps.md):
//   {"format", "version", "status": exited|error|unimplemented|max_cycles|interrupted,
//    "error", "config", "total_cycles", "completed", "sm_count", "max_warps_per_sm",
//    "core_period_ps", "runs", "wall": {"process_s", "api_s", "simulation_s", "startup_s"},
//    "kernels": {column: [values]}   (sim/kernel_columns.h; "name" demangled,
//                                     "mangled_name" added),
//    "copies": [{direction, address, bytes, stream, start_cycle, end_cycle, cycles, completed}],
//    "stats": {"stream_ids", "kernel_rows", "families": [{name, component, unit, doc,
//              dims: [{name, kind, labels}], totals: [[cell, value]...],
//              kernels: [[cell, value]...]}]}}      (nonzero cells, C order)
#include <cxxabi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "runtime.h"
#include "sim/kernel_columns.h"

namespace accelsim::cudart {

namespace {

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += char(c);
    else if (c == '\n') o += "\\n";
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else o += char(c);
  }
  return o + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string demangled(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : name;
}

std::string value_json(const sim::ColumnValue& v) {
  if (auto* u = std::get_if<uint64_t>(&v)) return std::to_string(*u);
  if (auto* d = std::get_if<double>(&v)) return number(*d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return quoted(std::get<std::string>(v));
}

// [[cell, value], ...] of the nonzero cells
std::string cells(std::span<const uint64_t> values) {
  std::string o = "[";
  bool first = true;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    o += (first ? "[" : ",[") + std::to_string(i) + "," + std::to_string(values[i]) + "]";
    first = false;
  }
  return o + "]";
}

const char* dim_kind(stats::DimKind k) {
  return k == stats::DimKind::Instance ? "instance" : k == stats::DimKind::Stream ? "stream" : "category";
}

std::string family_json(const stats::RunStats& s, size_t i) {
  const stats::CounterFamily& f = s.registry.family(i);
  std::ostringstream o;
  o << "{\"name\":" << quoted(f.name()) << ",\"component\":" << quoted(f.component()) << ",\"unit\":"
    << quoted(f.unit()) << ",\"doc\":" << quoted(f.doc()) << ",\"dims\":[";
  for (size_t d = 0; d < f.dims().size(); ++d) {
    const stats::Dim& dim = f.dims()[d];
    o << (d ? "," : "") << "{\"name\":" << quoted(dim.name) << ",\"kind\":\"" << dim_kind(dim.kind)
      << "\",\"labels\":[";
    for (size_t l = 0; l < dim.labels.size(); ++l) o << (l ? "," : "") << quoted(dim.labels[l]);
    o << "]}";
  }
  o << "],\"totals\":" << cells(f.values());
  o << ",\"kernels\":" << (s.kernels ? cells(s.kernels->family_rows(i)) : std::string("[]")) << "}";
  return o.str();
}

}  // namespace

// Friend of Runtime: reads its result so far.
struct ResultWriter {
  static std::string kernels(const Runtime& rt) {
    std::ostringstream o;
    o << "{";
    bool first = true;
    for (const sim::KernelColumn& c : sim::kernel_columns()) {
      o << (first ? "" : ",") << quoted(c.name) << ":[";
      first = false;
      for (size_t i = 0; i < rt.kernel_records_.size(); ++i) {
        const auto& k = rt.kernel_records_[i];
        o << (i ? "," : "")
          << (std::string(c.name) == "name" ? quoted(demangled(k.name)) : value_json(c.value(k, rt.facts_.max_warps_per_sm)));
      }
      o << "]";
    }
    o << ",\"mangled_name\":[";
    for (size_t i = 0; i < rt.kernel_records_.size(); ++i) o << (i ? "," : "") << quoted(rt.kernel_records_[i].name);
    return o.str() + "]}";
  }

  static std::string copies(const Runtime& rt) {
    std::ostringstream o;
    o << "[";
    for (size_t i = 0; i < rt.copies_.size(); ++i) {
      const sim::CopyRecord& c = rt.copies_[i].rec;
      o << (i ? "," : "") << "{\"direction\":" << quoted(rt.copies_[i].direction) << ",\"address\":" << c.address
        << ",\"bytes\":" << c.bytes << ",\"stream\":" << (c.async ? std::to_string(c.stream) : std::string("null"))
        << ",\"start_cycle\":" << c.start_cycle << ",\"end_cycle\":" << c.end_cycle
        << ",\"cycles\":" << c.end_cycle - c.start_cycle << ",\"completed\":" << (c.done ? "true" : "false") << "}";
    }
    return o.str() + "]";
  }

  static std::string stats(const Runtime& rt) {
    auto s = rt.session_->stats_since_reset();
    std::ostringstream o;
    o << "{\"stream_ids\":[";
    const auto& ids = s->registry.stream_ids();
    for (size_t i = 0; i < ids.size(); ++i) o << (i ? "," : "") << ids[i];
    o << "],\"kernel_rows\":" << (s->kernels ? s->kernels->rows() : 0) << ",\"families\":[";
    for (size_t i = 0; i < s->registry.size(); ++i) o << (i ? "," : "") << family_json(*s, i);
    return o.str() + "]}";
  }
};

void Runtime::write_result(const std::string& status, const std::string& error) {
  if (result_path_.empty()) return;
  using namespace std::chrono;
  const double process_s = duration<double>(steady_clock::now().time_since_epoch()).count() - start_wall_s_;
  std::ostringstream o;
  o << "{\"format\":\"accelsim-cuda-result\",\"version\":1,\"status\":" << quoted(status)
    << ",\"error\":" << quoted(error) << ",\"config\":" << quoted(cfg_.name)
    << ",\"total_cycles\":" << session_->now() << ",\"completed\":" << (status == "exited" ? "true" : "false")
    << ",\"sm_count\":" << facts_.sm_count << ",\"max_warps_per_sm\":" << facts_.max_warps_per_sm
    << ",\"core_period_ps\":" << facts_.core_period_ps << ",\"runs\":" << runs_
    << ",\"traced_kernels\":" << traced_kernels_ << ",\"wall\":{\"process_s\":"
    << number(process_s) << ",\"api_s\":" << number(api_wall_s_) << ",\"simulation_s\":" << number(sim_wall_s_)
    << ",\"startup_s\":" << number(startup_s_) << "},\"kernels\":" << ResultWriter::kernels(*this) << ",\"copies\":" << ResultWriter::copies(*this);
  try {
    o << ",\"stats\":" << ResultWriter::stats(*this);
  } catch (const std::exception&) {
    o << ",\"stats\":null";  // a run that failed left no consistent counters
  }
  o << "}\n";
  const std::string tmp = result_path_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << o.str();
    if (!out) {
      std::fprintf(stderr, "accelsim cuda: cannot write the result to %s\n", result_path_.c_str());
      return;
    }
  }
  std::rename(tmp.c_str(), result_path_.c_str());
}

void Runtime::finish() {
  std::lock_guard<std::recursive_mutex> lock(mu);
  if (finished_) return;
  synchronize();  // work queued but never waited for still runs on a GPU
  finished_ = true;
  write_result("exited", "");
}

}  // namespace accelsim::cudart
