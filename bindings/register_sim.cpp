// accelsim._core.Simulator: runs a workload with the GIL released and returns
// the per-kernel table as columns (lists) for pandas.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "config_convert.h"
#include "run_options_py.h"
#include "sim/gpu_session.h"
#include "sim/simulator.h"
#include "stats/kernel_columns.h"

namespace py = pybind11;
using accelsim::sim::RunOptions;
using accelsim::sim::RunResult;
using accelsim::sim::Simulator;
using accelsim::sim::WorkloadRun;
using accelsim::stats::KernelRecord;

accelsim::sim::IntraSampling accelsim::bindings::intra_from_python(const py::dict& in) {
  accelsim::sim::IntraSampling o;
  o.enabled = true;
  o.tolerance = in["tolerance"].cast<double>();
  o.window = in["window"].cast<uint32_t>();
  o.min_waves = in["min_waves"].cast<uint32_t>();
  if (in.contains("warm_tail")) o.warm_tail = in["warm_tail"].cast<bool>();
  return o;
}

namespace {

// The columns of stats/kernel_columns.h, one list each.
py::dict kernel_columns(const RunResult& r) {
  py::dict d;
  for (const accelsim::stats::KernelColumn& c : accelsim::stats::kernel_columns()) {
    py::list col;
    for (const KernelRecord& k : r.kernels)
      col.append(std::visit([](const auto& v) { return py::cast(v); }, c.value(k, r.max_warps_per_sm)));
    d[c.name] = col;
  }
  return d;
}

py::dict one_row(const RunResult& r, const KernelRecord& k) {
  RunResult one = accelsim::sim::empty_result_like(r);
  one.kernels.push_back(k);
  py::dict row;
  for (auto item : kernel_columns(one)) row[item.first] = item.second.cast<py::list>()[0];
  return row;
}

py::dict last_row(const WorkloadRun& run) { return one_row(run.result(), run.last_kernel()); }

// Several kernels may finish in one step when streams overlap.
py::list finished_rows(const WorkloadRun& run) {
  py::list out;
  for (size_t i : run.last_finished()) out.append(one_row(run.result(), run.result().kernels[i]));
  return out;
}

// `extra` (checked in Python, accelsim.sim): warmup, replay,
// first_command, end_command, count_from, flush, intra {tolerance, window,
// min_waves}.
RunOptions options(py::object max_cycles, py::object kernels, py::object extra = py::none()) {
  RunOptions opts;
  if (!max_cycles.is_none()) opts.max_cycles = max_cycles.cast<uint64_t>();
  if (!kernels.is_none()) opts.kernels = kernels.cast<std::vector<uint32_t>>();
  if (extra.is_none()) return opts;
  const py::dict x = extra.cast<py::dict>();
  if (x.contains("warmup")) opts.warmup = x["warmup"].cast<std::vector<size_t>>();
  if (x.contains("first_command")) opts.first_command = x["first_command"].cast<size_t>();
  if (x.contains("end_command")) opts.end_command = x["end_command"].cast<size_t>();
  if (x.contains("count_from")) opts.count_from = x["count_from"].cast<size_t>();
  if (x.contains("flush")) opts.flush = x["flush"].cast<bool>();
  if (x.contains("replay")) opts.replay = x["replay"].cast<std::vector<size_t>>();
  if (x.contains("intra")) opts.intra = accelsim::bindings::intra_from_python(x["intra"].cast<py::dict>());
  return opts;
}

py::dict to_python(const RunResult& r) {
  py::dict d;
  d["kernels"] = kernel_columns(r);
  d["total_cycles"] = r.total_cycles;
  d["completed"] = r.completed;
  d["interrupted"] = r.interrupted;
  d["sm_count"] = r.sm_count;
  d["max_warps_per_sm"] = r.max_warps_per_sm;
  d["core_period_ps"] = r.core_period_ps;
  d["stats"] = r.stats ? py::cast(r.stats) : py::none();
  py::list copies;  // every copy the run timed, in command order
  for (const accelsim::sim::CopyRecord& c : r.copies)
    copies.append(py::dict(py::arg("direction") = c.to_host ? "DtoH" : "HtoD", py::arg("address") = c.address,
                           py::arg("bytes") = c.bytes,
                           py::arg("stream") = c.async ? py::object(py::int_(c.stream)) : py::object(py::none()),
                           py::arg("start_cycle") = c.start_cycle, py::arg("end_cycle") = c.end_cycle,
                           py::arg("cycles") = c.end_cycle - c.start_cycle, py::arg("completed") = c.done,
                           py::arg("warmup") = c.warmup));
  d["copies"] = copies;
  return d;
}

py::dict progress_dict(const accelsim::sim::Progress& p) {
  py::dict d;
  d["cycles"] = p.cycles;
  d["warp_instructions"] = p.warp_instructions;
  d["kernels_done"] = p.kernels_done;
  d["kernels_total"] = p.kernels_total;
  d["copying"] = p.copying;
  d["ctas_done"] = p.ctas_done;
  d["ctas_total"] = p.ctas_total;
  return d;
}

}  // namespace

// One step with the GIL released. About every `interval_ms` the run takes the
// GIL back briefly: pending signals are handled (Ctrl-C raises
// KeyboardInterrupt there) and `on_poll(progress)` is called; an exception
// from either, or on_poll returning True, stops the run where it is, and the
// exception is raised here once the step has returned (the run then holds
// the partial result).
bool polled_step(WorkloadRun& run, const py::object& on_poll, int interval_ms) {
  std::optional<py::error_already_set> error;
  run.set_poll(
      [&](const accelsim::sim::Progress& p) {
        py::gil_scoped_acquire gil;
        try {
          if (PyErr_CheckSignals() != 0) throw py::error_already_set();
          return !on_poll.is_none() && on_poll(progress_dict(p)).is(py::bool_(true));
        } catch (py::error_already_set& e) {
          error.emplace(std::move(e));
          return true;
        }
      },
      std::chrono::milliseconds(interval_ms));
  bool more;
  try {
    py::gil_scoped_release release;
    more = run.step();
  } catch (...) {
    run.set_poll({});
    throw;
  }
  run.set_poll({});
  if (error) throw std::move(*error);
  return more;
}

// The result and progress dicts, for other bindings that run (register_ptx.cpp).
py::dict run_result_to_python(const RunResult& r) { return to_python(r); }
py::dict progress_to_python(const accelsim::sim::Progress& p) { return progress_dict(p); }
py::list finished_kernels_to_python(const WorkloadRun& run) { return finished_rows(run); }

// Simulator and the GpuSession it makes.
static void bind_simulator(py::module_& m) {
  // One GPU kept across runs (a Device's synchronize() calls): see sim/gpu_session.h.
  py::class_<accelsim::sim::GpuSession, std::shared_ptr<accelsim::sim::GpuSession>>(m, "GpuSession")
      .def_property_readonly("now", [](const accelsim::sim::GpuSession& g) { return g.now().count(); })
      .def_property_readonly("resets", &accelsim::sim::GpuSession::resets)
      .def("mark", &accelsim::sim::GpuSession::mark, "Opens a window of runs (Device.synchronize's).")
      .def("stats_since_mark", &accelsim::sim::GpuSession::stats_since_mark,
           "Statistics of every run since mark() (or since the last fresh GPU).");
  py::class_<Simulator, std::shared_ptr<Simulator>>(m, "Simulator")
      .def(py::init([](const py::dict& cfg, const std::string& isa_dir) {
             return std::make_shared<Simulator>(accelsim::bindings::config_from_dict(cfg), isa_dir);
           }),
           py::arg("config"), py::arg("isa_dir"))
      .def("config", [](const Simulator& s) { return accelsim::bindings::config_to_dict(s.config()); },
           "The config the simulator was built from, as canonical values (defaults included).")
      .def(
          "session",
          [](const Simulator& s, size_t max_streams) {
            return std::make_shared<accelsim::sim::GpuSession>(s.config(), max_streams);
          },
          py::arg("max_streams") = 32, "A GpuSession: one GPU of this config kept across runs.")
      .def(
          "start",
          [](Simulator& s, const std::string& path, py::object max_cycles, py::object kernels, py::object extra) {
            RunOptions opts = options(max_cycles, kernels, extra);
            py::gil_scoped_release release;
            return s.start(path, opts);
          },
          py::arg("path"), py::arg("max_cycles") = py::none(), py::arg("kernels") = py::none(),
          py::arg("options") = py::none(),
          "A WorkloadRun over a kernelslist.g or kernel trace (fresh GPU). options: warmup, "
          "first_command, end_command, count_from, flush, intra (see RunOptions).")
      .def(
          "run",
          [](Simulator& s, const std::string& path, py::object max_cycles, py::object kernels) {
            RunOptions opts = options(max_cycles, kernels);
            std::unique_ptr<WorkloadRun> run;
            {
              py::gil_scoped_release release;
              run = s.start(path, opts);
            }
            while (polled_step(*run, py::none(), 50)) {
            }
            return to_python(run->result());
          },
          py::arg("path"), py::arg("max_cycles") = py::none(), py::arg("kernels") = py::none(),
          "Runs a kernelslist.g or kernel trace; returns {'kernels': columns, ...}.");
}

void register_sim(py::module_& m) {
  m.def("kernel_columns", [] {
    py::list out;
    for (const accelsim::stats::KernelColumn& c : accelsim::stats::kernel_columns())
      out.append(py::make_tuple(c.name, c.doc));
    return out;
  }, "(name, doc) of every per-kernel column, in table order (stats/kernel_columns.h).");
  py::class_<WorkloadRun>(m, "WorkloadRun")
      .def("step", &polled_step, py::arg("on_poll") = py::none(), py::arg("interval_ms") = 50,
           "Runs up to and including the next kernel; False when none was left. Signals "
           "(Ctrl-C) and on_poll(progress dict) are handled every interval_ms; an exception "
           "from either, or on_poll returning True, stops the run where it is.")
      .def("progress", [](const WorkloadRun& run) { return progress_dict(run.progress()); })
      .def("interrupt", &WorkloadRun::interrupt,
           "Ends the run between steps: kernels in flight cut off, the rest not reached.")
      .def_property_readonly("done", &WorkloadRun::done)
      .def("last_kernel", &last_row, "The row of the last kernel the last step finished.")
      .def("finished_kernels", &finished_rows, "Rows of every kernel the last step finished.")
      .def("result", [](const WorkloadRun& run) { return to_python(run.result()); });
  bind_simulator(m);
}
