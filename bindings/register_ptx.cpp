// accelsim._core PTX front end: modules (parsed PTX), device memory, and
// running launches on a Simulator (blocks emulated as the dispatcher asks).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "ptx/device_memory.h"
#include "ptx/fatbin.h"
#include "ptx/module.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "ptx/ptx_error.h"
#include "sim/gpu_session.h"
#include "sim/ptx_commands.h"
#include "sim/simulator.h"

#include "ptx_commands_py.h"
#include "run_options_py.h"

namespace py = pybind11;
using namespace accelsim;

// register_sim.cpp: the result and progress dicts, and one polled step
py::dict run_result_to_python(const sim::RunResult& r);
py::dict progress_to_python(const sim::Progress& p);
py::list finished_kernels_to_python(const sim::WorkloadRun& run);
bool polled_step(sim::WorkloadRun& run, const py::object& on_poll, int interval_ms);

namespace {

using sim::PtxTables;

// tex1Dfetch's texture over linear memory: `count` elements of `elem_bytes`, kind "f", "i" or "u".
uint64_t add_linear_texture(ptx::DeviceMemory& mem, uint64_t ptr, uint64_t count, uint32_t elem_bytes,
                            const std::string& kind) {
  return mem.add_texture(ptr, count, elem_bytes, kind.empty() ? 'f' : kind[0]);
}

// A texture or surface object over device memory, described as the CUDA
// runtime's cudaCreateTextureObject / cudaCreateSurfaceObject would: the
// dict accelsim.ptx.textures.texture_args makes (it checks the values and
// names the bad one).
uint64_t add_texture_object(ptx::DeviceMemory& mem, const py::dict& d) {
  using Texture = ptx::DeviceMemory::Texture;
  auto get = [&](const char* key) { return d[key]; };
  Texture t;
  t.ptr = get("ptr").cast<uint64_t>();
  const auto shape = get("shape").cast<std::string>();
  t.shape = shape == "linear" ? Texture::Shape::kLinear1d : shape == "pitch2d" ? Texture::Shape::kPitch2d
                                                                                : Texture::Shape::kArray;
  t.channels = get("channels").cast<uint8_t>(), t.channel_bits = get("channel_bits").cast<uint8_t>();
  t.elem_bytes = uint32_t(t.channels) * t.channel_bits / 8;
  const auto kind = get("kind").cast<std::string>();
  t.kind = kind.empty() ? 'f' : kind[0];
  t.width = t.count = get("width").cast<uint64_t>();
  t.height = get("height").cast<uint64_t>(), t.depth = get("depth").cast<uint64_t>();
  t.pitch = uint64_t(t.elem_bytes) * t.width;
  const auto modes = get("address_mode").cast<std::vector<uint32_t>>();
  for (size_t k = 0; k < 3 && k < modes.size(); ++k) t.address_mode[k] = uint8_t(modes[k]);
  const auto border = get("border").cast<std::vector<float>>();
  for (size_t c = 0; c < 4 && c < border.size(); ++c) t.border[c] = border[c];
  t.filter = get("filter").cast<uint8_t>();
  t.normalized_coords = get("normalized_coords").cast<bool>();
  t.normalized_read = get("normalized_read").cast<bool>();
  t.layered = get("layered").cast<bool>(), t.surface = get("surface").cast<bool>();
  return mem.add_texture(t);
}

py::dict kernel_dict(const ptx::Function& f) {
  py::dict d;
  d["name"] = f.name;
  d["line"] = f.line;
  py::list params;
  for (const ptx::Param& p : f.params)
    params.append(py::dict(py::arg("name") = p.name, py::arg("type") = ptx::ty_name(p.type),
                           py::arg("size") = p.size, py::arg("align") = p.align, py::arg("offset") = p.offset,
                           py::arg("pointer") = p.pointer));
  d["params"] = params;
  d["param_bytes"] = f.param_bytes;
  d["shared_bytes"] = f.shared_bytes;
  d["local_bytes"] = f.local_bytes;
  d["registers"] = f.regs.size();
  return d;
}

// Emulation outside a timed run (save_trace's whole blocks): about every
// 50 ms the GIL is taken to run the interpreter's signal handlers and
// `on_poll()`; an exception from either (KeyboardInterrupt) stops the
// emulation and is raised once it returned.
class SignalGuard final : public RunGuard {
 public:
  explicit SignalGuard(py::object poll) : on_poll(std::move(poll)) {}
  bool stop_requested() override {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) return false;
    next_ = now + std::chrono::milliseconds(50);
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!on_poll.is_none()) on_poll();
    } catch (py::error_already_set& e) {
      error.emplace(std::move(e));
      return true;
    }
    return false;
  }
  uint64_t cycles_left() const override { return UINT64_MAX; }
  py::object on_poll;
  std::optional<py::error_already_set> error;

 private:
  std::chrono::steady_clock::time_point next_ = std::chrono::steady_clock::now();
};

// A Device run in progress: the session's run, the copies whose host
// arrays it fills, and the record streams' statistics.
struct PtxRun {
  std::shared_ptr<sim::GpuSession> session;  // kept alive while its run is (declared first: dies last)
  std::unique_ptr<sim::SessionRun> session_run;
  std::vector<py::object> fills;  // PtxCopy objects with a host array
  std::vector<sim::PtxStreamHandle> streams;
};

// The run's result dict (as Simulator.run's), once: host arrays filled.
py::dict ptx_run_result(PtxRun& r) {
  sim::RunResult res;
  {
    py::gil_scoped_release release;
    res = r.session_run->finish();
  }
  for (const py::object& c : r.fills)  // device-to-host copies the run reached
    c.cast<const bindings::PtxCopy&>().fill_host();
  py::dict out = run_result_to_python(res);
  uint64_t most = 0, refills = 0, dry = 0;
  for (const auto& st : r.streams)
    most = std::max(most, st->max_buffered), refills += st->refills, dry += st->dry_waits;
  out["record_buffer_max"] = most;  // the most records one warp held at once
  out["record_refills"] = refills;
  out["record_dry_waits"] = dry;  // refills that came after a warp had issued everything
  return out;
}

}  // namespace

namespace {

// The tables, parsed modules and device memory.
void bind_module(py::module_& m) {
  py::class_<PtxTables, std::shared_ptr<PtxTables>>(m, "PtxTables")
      .def(py::init(&PtxTables::load), py::arg("opcodes"), py::arg("lowering"), py::arg("isa_dir"),
           py::arg("unit_overrides") = std::vector<std::pair<std::string, std::string>>{});

  py::class_<ptx::Module, std::shared_ptr<ptx::Module>>(m, "PtxModule")
      .def_static(
          "parse",
          [](const std::string& text, const std::string& path, const PtxTables& t) {
            return std::const_pointer_cast<ptx::Module>(ptx::parse_module(text, path, t.opcodes));
          },
          py::arg("text"), py::arg("path"), py::arg("tables"))
      .def_readonly("path", &ptx::Module::path)
      .def_readonly("version", &ptx::Module::version)
      .def_readonly("target", &ptx::Module::target)
      .def_readonly("sm", &ptx::Module::sm)
      .def("kernels",
           [](const ptx::Module& mod) {
             py::list out;
             for (const ptx::Function& f : mod.funcs)
               if (f.entry && f.defined) out.append(kernel_dict(f));
             return out;
           })
      .def(
          "check_kernel",
          [](const ptx::Module& mod, const std::string& name) { (void)ptx::call_graph(mod, name); },
          py::arg("name"),
          "Raises the PtxError a launch of kernel `name` would meet before it runs (an instruction the parser "
          "kept as unsupported, a call without a body, recursion).")
      .def("globals", [](const ptx::Module& mod) {
        py::list out;
        for (const ptx::Symbol& s : mod.globals)
          out.append(py::dict(py::arg("name") = s.name, py::arg("size") = s.size, py::arg("align") = s.align,
                              py::arg("const") = s.space == ptx::kSpConst,
                              py::arg("init") = py::bytes(reinterpret_cast<const char*>(s.init.data()), s.init.size())));
        return out;
      });

  py::class_<ptx::DeviceMemory, std::shared_ptr<ptx::DeviceMemory>>(m, "DeviceMemory")
      .def(py::init<>())
      .def("allocate", &ptx::DeviceMemory::allocate, py::arg("bytes"))
      .def("write",
           [](ptx::DeviceMemory& mem, uint64_t addr, const py::buffer& b) {
             py::buffer_info info = b.request();
             mem.write(addr, info.ptr, uint64_t(info.size) * uint64_t(info.itemsize));
           })
      .def("read",
           [](const ptx::DeviceMemory& mem, uint64_t addr, uint64_t n) {
             std::string buf(n, '\0');
             mem.read(addr, buf.data(), n);
             return py::bytes(buf);
           })
      .def("fill", &ptx::DeviceMemory::fill)
      .def("add_texture", &add_linear_texture)
      .def("add_texture_object", &add_texture_object)
      .def_property_readonly("bytes_allocated", &ptx::DeviceMemory::bytes_allocated);
}

void bind_blocks(py::module_& m) {
  // One launch's blocks, emulated one at a time (for save_trace): each as
  // (coord, raw records bytes, warp_begin, addresses).
  py::class_<sim::PtxKernelSource>(m, "PtxBlocks")
      .def(py::init([](const PtxTables& t, const sim::PtxLaunchCommand& launch, uint32_t version, uint32_t id) {
             return sim::make_kernel_source(t, launch, version, id, /*streamed=*/false);
           }),
           py::arg("tables"), py::arg("launch"), py::arg("binary_version"), py::arg("id"))
      .def("header",
           [](const sim::PtxKernelSource& s) {
             const auto& k = s.info();
             return py::dict(py::arg("name") = k.name, py::arg("id") = k.id,
                             py::arg("grid") = py::make_tuple(k.grid.x, k.grid.y, k.grid.z),
                             py::arg("block") = py::make_tuple(k.block.x, k.block.y, k.block.z),
                             py::arg("shmem") = k.shmem_bytes, py::arg("nregs") = k.nregs,
                             py::arg("binary_version") = k.binary_version, py::arg("stream") = k.stream,
                             py::arg("shmem_base") = k.shmem_base, py::arg("local_base") = k.local_base);
           })
      .def("next_block", [](sim::PtxKernelSource& s, py::object on_poll) -> py::object {
        trace::ThreadBlockTrace b;
        bool more;
        SignalGuard guard(std::move(on_poll));  // Ctrl-C (and on_poll) during a long block
        s.watch(&guard);
        try {
          py::gil_scoped_release release;
          more = s.next_block(b);
        } catch (const ptx::EmulationStopped&) {
          s.watch(nullptr);
          if (guard.error) throw std::move(*guard.error);
          throw;
        }
        s.watch(nullptr);
        if (!more) return py::none();
        py::bytes raw(reinterpret_cast<const char*>(b.insts.data()), b.insts.size() * sizeof(isa::InstRecord));
        py::bytes addrs(reinterpret_cast<const char*>(b.addrs.data()), b.addrs.size() * sizeof(uint64_t));
        return py::make_tuple(py::make_tuple(b.coord.x, b.coord.y, b.coord.z), raw, b.warp_begin, addrs);
      }, py::arg("on_poll") = py::none());
}

void bind_run(py::module_& m) {
  // Queued launches and copies on a Device's GPU, stepped from Python like
  // Simulator.run's WorkloadRun (Ctrl-C, progress, budget); result() fills
  // the host arrays of the device-to-host copies the run reached.
  py::class_<PtxRun>(m, "PtxRun")
      .def(
          "step",
          [](PtxRun& r, const py::object& on_poll, int interval_ms) {
            if (!r.session_run->active()) return false;
            try {
              return polled_step(r.session_run->run(), on_poll, interval_ms);
            } catch (const py::error_already_set&) {
              throw;  // from the poll (Ctrl-C, on_progress): the run stopped where it was
            } catch (...) {
              r.session_run->fail();  // the GPU is mid-kernel: the next run starts fresh
              throw;
            }
          },
          py::arg("on_poll") = py::none(), py::arg("interval_ms") = 50)
      .def("progress", [](PtxRun& r) { return progress_to_python(r.session_run->run().progress()); })
      .def("interrupt", [](PtxRun& r) {
        if (r.session_run->active()) r.session_run->run().interrupt();
      })
      .def("finished_kernels", [](PtxRun& r) { return finished_kernels_to_python(r.session_run->run()); })
      .def("close", [](PtxRun& r) { r.session_run->fail(); },
           "Abandons the run if its result was not taken (the next run starts on a fresh GPU).")
      .def("result", &ptx_run_result);

  m.def(
      "start_ptx",
      [](const PtxTables& t, const py::list& commands, uint32_t version, std::shared_ptr<sim::GpuSession> session,
         py::object max_cycles, uint32_t first_id, bool flush_caches, py::object intra) {
        auto r = std::make_unique<PtxRun>();
        sim::Workload w = sim::ptx_workload(t, bindings::ptx_commands(commands, r->fills), version, first_id,
                                            &r->streams);
        sim::RunOptions opts;
        if (!max_cycles.is_none()) opts.max_cycles = max_cycles.cast<uint64_t>();
        opts.flush_caches = flush_caches;
        if (!intra.is_none()) opts.intra = bindings::intra_from_python(intra.cast<py::dict>());
        py::gil_scoped_release release;
        r->session = session;
        r->session_run = session->start(std::move(w), opts);
        return r;
      },
      py::arg("tables"), py::arg("commands"), py::arg("binary_version"), py::arg("session"),
      py::arg("max_cycles") = py::none(), py::arg("first_id") = 1, py::arg("flush_caches") = false,
      py::arg("intra") = py::none(),
      "PtxLaunch / PtxCopy commands as a run on `session`'s GPU; kernels are numbered from first_id; "
      "flush_caches: L2 emptied before each kernel; intra: intra-kernel sampling's options (a dict, "
      "IntraKernelSampling.core_options()).");
}

}  // namespace

void register_ptx(py::module_& m) {
  bind_module(m);
  bindings::register_ptx_commands(m);
  bind_blocks(m);
  bind_run(m);

  m.def(
      "fatbin_ptx",
      [](const std::string& path, uint32_t sm_version) {
        std::vector<uint8_t> section = ptx::elf_fatbin_section(path);
        py::list out;
        if (section.empty()) return out;
        auto entries = ptx::parse_fatbin(section.data(), section.size(), path);
        for (const ptx::PtxText& t : ptx::ptx_texts(entries, sm_version, path)) {
          // PTX is text: an entry that is not UTF-8 is damage, named as such
          py::object text = py::reinterpret_steal<py::object>(
              PyUnicode_DecodeUTF8(t.text.data(), Py_ssize_t(t.text.size()), nullptr));
          if (!text) {
            PyErr_Clear();
            throw Error(path + ": the fat binary's PTX entry for compute_" + std::to_string(t.arch) +
                        " is not text (not UTF-8): the binary is damaged");
          }
          out.append(py::make_tuple(t.arch, text));
        }
        return out;
      },
      py::arg("path"), py::arg("sm_version") = 70,
      "The PTX texts embedded in a program's fat binary as (arch, text), best first for sm_version "
      "(what the CUDA runtime library runs); empty when it has none.");
}
