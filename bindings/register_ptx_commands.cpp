// accelsim._core PTX commands as Python classes: PtxLaunch (sim::PtxLaunchCommand)
// and PtxCopy (sim::CopyCommand plus the host array a device-to-host copy
// fills), built with named, typed keyword arguments as boost-histogram binds
// its axes: a misspelt or missing argument is a TypeError, and each value is
// converted once, here, into the struct the timing run reads
// (sim/ptx_commands.h). accelsim.ptx.Device queues them; start_ptx runs them.
#include "ptx_commands_py.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <unordered_map>

namespace py = pybind11;
using namespace accelsim;

namespace accelsim::bindings {

void PtxCopy::fill_host() const {
  if (!buf || host.is_none()) return;
  py::buffer_info info = host.cast<py::buffer>().request(true);
  const size_t n = std::min<size_t>(buf->size(), size_t(info.size) * size_t(info.itemsize));
  std::memcpy(info.ptr, buf->data(), n);
}

namespace {

using Sass = std::unordered_map<uint32_t, std::vector<std::string>>;
using SassOps = std::vector<ptx::SassLoop::Op>;
// (lines, k, body, every_k, at_exit): accelsim.ptx.sass_unroll.LoopRecords
using SassLoopSpec = std::tuple<std::vector<uint32_t>, uint32_t, Sass, SassOps, std::vector<SassOps>>;

std::vector<ptx::SassLoop> sass_loops(std::vector<SassLoopSpec> specs) {
  std::vector<ptx::SassLoop> out;
  for (auto& [lines, k, body, every_k, at_exit] : specs) {
    if (lines.empty() || k < 2 || at_exit.size() != 2 * size_t(k))
      throw py::value_error("PtxLaunch: sass_loops entry needs lines, k >= 2 and 2k at_exit lists");
    out.push_back(ptx::SassLoop{std::move(lines), k, std::move(body), std::move(every_k), std::move(at_exit)});
  }
  return out;
}

sim::PtxLaunchCommand make_launch(std::shared_ptr<ptx::Module> module, std::string kernel,
                                  std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block,
                                  std::shared_ptr<ptx::DeviceMemory> memory, const py::bytes& params,
                                  std::vector<uint64_t> globals, uint64_t stream, uint32_t dyn_shared,
                                  uint32_t regs_per_thread, int64_t static_shared, ptx::RecordMode records,
                                  std::optional<Sass> sass, std::optional<std::string> sass_source,
                                  std::vector<SassLoopSpec> loops, uint32_t binary_version, uint32_t sm_count, uint64_t max_warp_insts, uint32_t chunk_records) {
  sim::PtxLaunchCommand c;
  if (!module || !memory) throw py::type_error("PtxLaunch: module and memory must not be None");
  if (sass) {  // the SASS ptxas made of each PTX line replaces the lowered records
    auto guide = std::make_shared<ptx::SassGuide>();
    guide->source = sass_source ? *sass_source : module->path;
    guide->by_line = std::move(*sass);
    guide->loops = sass_loops(std::move(loops));
    c.sass = std::move(guide);
  }
  c.module = std::move(module);
  c.kernel = std::move(kernel);
  c.grid = Dim3{grid[0], grid[1], grid[2]};
  c.block = Dim3{block[0], block[1], block[2]};
  c.memory = std::move(memory);
  const std::string_view p = params;
  c.params.assign(p.begin(), p.end());
  c.globals = std::move(globals);
  c.stream = stream;
  c.dyn_shared = dyn_shared;
  c.regs_per_thread = regs_per_thread;
  c.static_shared = static_shared;
  c.records = records;
  c.binary_version = binary_version;
  c.sm_count = sm_count;
  c.max_warp_insts = max_warp_insts;
  c.chunk_records = chunk_records;
  return c;
}

PtxCopy make_copy(uint64_t address, uint64_t bytes, bool to_host, std::optional<uint64_t> stream,
                  std::shared_ptr<ptx::DeviceMemory> memory, std::optional<py::bytes> data, py::object host,
                  std::optional<py::bytes> fill) {
  PtxCopy c;
  c.cmd.to_host = to_host;
  c.cmd.address = address;
  c.cmd.bytes = bytes;
  c.cmd.stream = stream;
  c.cmd.memory = std::move(memory);
  if (data && to_host) throw py::value_error("PtxCopy: data is for a host-to-device copy");
  if (!host.is_none() && !to_host) throw py::value_error("PtxCopy: host is for a device-to-host copy");
  if (data) {
    const std::string_view d = *data;
    if (d.size() != bytes) throw py::value_error("PtxCopy: data is not `bytes` long");
    c.cmd.data = std::make_shared<const std::vector<uint8_t>>(d.begin(), d.end());
  }
  if (fill) {  // a fill (cudaMemset): bytes set in order, no time taken
    if (to_host || data || !c.cmd.memory) throw py::value_error("PtxCopy: fill is for device memory, alone");
    auto set = std::make_shared<const std::string>(std::string_view(*fill));
    c.cmd.on_start = [mem = c.cmd.memory, addr = address, set] {
      mem->write(addr, reinterpret_cast<const uint8_t*>(set->data()), set->size());
    };
    c.fill = true;
  }
  if (!host.is_none()) {
    // The run moves bytes without the GIL: into `buf`, copied into the array after.
    py::buffer_info info = host.cast<py::buffer>().request(true);
    if (uint64_t(info.size) * uint64_t(info.itemsize) < bytes)
      throw py::value_error("PtxCopy: host holds fewer than `bytes` bytes");
    c.host = std::move(host);
    c.buf = std::make_shared<std::string>(bytes, '\0');
    c.cmd.deliver = [buf = c.buf](const uint8_t* b, uint64_t n) { std::copy(b, b + n, buf->begin()); };
  }
  return c;
}

py::tuple dims(const Dim3& d) { return py::make_tuple(d.x, d.y, d.z); }

void bind_launch(py::module_& m) {
  py::enum_<ptx::RecordMode>(m, "RecordMode", "What the timing model sees per executed PTX instruction.")
      .value("lowered", ptx::RecordMode::kLowered)
      .value("ptx", ptx::RecordMode::kPtx);
  py::class_<sim::PtxLaunchCommand>(m, "PtxLaunch", "One kernel launch (sim/ptx_commands.h).")
      .def(py::init(&make_launch), py::kw_only(), py::arg("module"), py::arg("kernel"), py::arg("grid"),
           py::arg("block"), py::arg("memory"), py::arg("params") = py::bytes(),
           py::arg("globals") = std::vector<uint64_t>{}, py::arg("stream") = 0, py::arg("dyn_shared") = 0,
           py::arg("regs_per_thread") = 32, py::arg("static_shared") = -1,
           py::arg("records") = ptx::RecordMode::kLowered, py::arg("sass") = py::none(),
           py::arg("sass_source") = py::none(), py::arg("sass_loops") = std::vector<SassLoopSpec>{},
           py::arg("binary_version") = 0, py::arg("sm_count") = 80,
           py::arg("max_warp_insts") = uint64_t(1) << 24, py::arg("chunk_records") = 128)
      .def_readonly("module", &sim::PtxLaunchCommand::module)
      .def_readonly("kernel", &sim::PtxLaunchCommand::kernel)
      .def_property_readonly("grid", [](const sim::PtxLaunchCommand& c) { return dims(c.grid); })
      .def_property_readonly("block", [](const sim::PtxLaunchCommand& c) { return dims(c.block); })
      .def_property_readonly("params", [](const sim::PtxLaunchCommand& c) {
        return py::bytes(reinterpret_cast<const char*>(c.params.data()), c.params.size());
      })
      .def_readonly("globals", &sim::PtxLaunchCommand::globals)
      .def_readonly("stream", &sim::PtxLaunchCommand::stream)
      .def_readonly("dyn_shared", &sim::PtxLaunchCommand::dyn_shared)
      .def_readonly("regs_per_thread", &sim::PtxLaunchCommand::regs_per_thread)
      .def_readonly("static_shared", &sim::PtxLaunchCommand::static_shared)
      .def_readonly("records", &sim::PtxLaunchCommand::records)
      .def_property_readonly("sass_source", [](const sim::PtxLaunchCommand& c) -> std::optional<std::string> {
        if (!c.sass) return std::nullopt;
        return c.sass->source;
      })
      .def_readonly("binary_version", &sim::PtxLaunchCommand::binary_version)
      .def_readonly("sm_count", &sim::PtxLaunchCommand::sm_count)
      .def_readonly("max_warp_insts", &sim::PtxLaunchCommand::max_warp_insts)
      .def_readonly("chunk_records", &sim::PtxLaunchCommand::chunk_records);
}

void bind_copy(py::module_& m) {
  py::class_<PtxCopy>(m, "PtxCopy", "One copy on a copy engine (sim/ptx_commands.h).")
      .def(py::init(&make_copy), py::kw_only(), py::arg("address"), py::arg("bytes"), py::arg("to_host") = false,
           py::arg("stream") = py::none(), py::arg("memory") = py::none(), py::arg("data") = py::none(),
           py::arg("host") = py::none(), py::arg("fill") = py::none())
      .def_property_readonly("address", [](const PtxCopy& c) { return c.cmd.address; })
      .def_property_readonly("bytes", [](const PtxCopy& c) { return c.cmd.bytes; })
      .def_property_readonly("to_host", [](const PtxCopy& c) { return c.cmd.to_host; })
      .def_property_readonly("stream", [](const PtxCopy& c) { return c.cmd.stream; })
      .def_property_readonly("is_fill", [](const PtxCopy& c) { return c.fill; })
      .def(
          "apply",
          [](const PtxCopy& c) {
            sim::apply_copy(c.cmd);
            c.fill_host();
          },
          "Moves the copy's bytes now, untimed (save_trace runs commands in order).");
}

}  // namespace

std::vector<sim::PtxCommand> ptx_commands(const py::list& commands, std::vector<py::object>& fills) {
  std::vector<sim::PtxCommand> out;
  out.reserve(commands.size());
  for (py::handle h : commands) {
    if (py::isinstance<PtxCopy>(h)) {
      const PtxCopy& c = h.cast<const PtxCopy&>();
      out.emplace_back(c.cmd);
      if (c.buf) fills.push_back(py::reinterpret_borrow<py::object>(h));
    } else if (py::isinstance<sim::PtxLaunchCommand>(h)) {
      out.emplace_back(h.cast<const sim::PtxLaunchCommand&>());
    } else {
      throw py::type_error("PTX commands are PtxLaunch or PtxCopy, not " +
                           py::type::of(h).attr("__name__").cast<std::string>());
    }
  }
  return out;
}

void register_ptx_commands(py::module_& m) {
  bind_launch(m);
  bind_copy(m);
}

}  // namespace accelsim::bindings
