// accelsim._core PTX front end: modules (parsed PTX), device memory, and
// running launches on a Simulator (blocks emulated as the dispatcher asks).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "isa/isa_table.h"
#include "ptx/device_memory.h"
#include "ptx/emulator.h"
#include "ptx/module.h"
#include "ptx/opcode_table.h"
#include "ptx/program.h"
#include "sim/gpu_session.h"
#include "ptx/sass_guided.h"
#include "sim/ptx_kernel_source.h"
#include "sim/simulator.h"

namespace py = pybind11;
using namespace accelsim;

py::dict run_result_to_python(const sim::RunResult& r);  // register_sim.cpp

namespace {

// Tables shared by every module: the opcode table (parse) and the lowering
// table plus ISA registry (prepare), loaded from the data folder.
struct PtxTables {
  ptx::OpcodeTable opcodes;
  ptx::LoweringTable lowering;
  std::shared_ptr<isa::IsaRegistry> isa;
};

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

// The launch's "records" entry (checked by accelsim.ptx.Device).
ptx::RecordMode record_mode(const py::dict& d) {
  std::string mode = d.contains("records") ? d["records"].cast<std::string>() : "lowered";
  if (mode == "ptx") return ptx::RecordMode::kPtx;
  // "sass" starts from the lowered templates; the launch's SASS guide replaces them
  if (mode != "lowered" && mode != "sass")
    throw py::value_error("records must be 'lowered', 'ptx' or 'sass', not '" + mode + "'");
  return ptx::RecordMode::kLowered;
}

std::shared_ptr<const ptx::Launch> make_launch(const PtxTables& t, const std::shared_ptr<const ptx::Module>& m,
                                               const py::dict& d, uint32_t version) {
  auto L = std::make_shared<ptx::Launch>();
  L->kernel = d["kernel"].cast<std::string>();
  std::shared_ptr<const isa::IsaTable> table(t.isa, &t.isa->for_version(version, "<ptx>", 0));
  std::unique_ptr<ptx::SassGuide> sass;  // records="sass": {PTX line: [SASS opcodes]}
  if (d.contains("sass")) {
    sass = std::make_unique<ptx::SassGuide>();
    sass->source = d.contains("sass_source") ? d["sass_source"].cast<std::string>() : m->path;
    sass->by_line = d["sass"].cast<std::unordered_map<uint32_t, std::vector<std::string>>>();
  }
  L->prog = ptx::prepare(m, L->kernel, *table, t.lowering, version, record_mode(d), sass.get());
  if (d.contains("static_shared")) L->static_shared = d["static_shared"].cast<int64_t>();
  auto dim = [](py::handle h) {
    auto v = h.cast<std::vector<uint32_t>>();
    return Dim3{v.at(0), v.at(1), v.at(2)};
  };
  L->grid = dim(d["grid"]);
  L->block = dim(d["block"]);
  L->dyn_shared = d["shared_mem"].cast<uint32_t>();
  std::string params = d["params"].cast<std::string>();
  L->params.assign(params.begin(), params.end());
  L->global_addr = d["globals"].cast<std::vector<uint64_t>>();
  L->mem = d["memory"].cast<std::shared_ptr<ptx::DeviceMemory>>();
  L->sm_count = d["sm_count"].cast<uint32_t>();
  L->max_warp_insts = d["max_warp_insts"].cast<uint64_t>();
  if (d.contains("chunk_records")) L->chunk_records = d["chunk_records"].cast<uint32_t>();
  L->shmem_base = sim::PtxKernelSource::kSharedWindow;
  L->local_base = sim::PtxKernelSource::kLocalWindow;
  return L;
}

}  // namespace

void register_ptx(py::module_& m) {
  py::class_<PtxTables, std::shared_ptr<PtxTables>>(m, "PtxTables")
      .def(py::init([](const std::string& opcodes, const std::string& lowering, const std::string& isa_dir,
                       const std::vector<std::pair<std::string, std::string>>& unit_overrides) {
             auto t = std::make_shared<PtxTables>();
             t->opcodes = ptx::OpcodeTable::load(opcodes);
             t->lowering = ptx::LoweringTable::load(lowering);
             // a config's opcode_units, applied as the SASS path applies them
             t->isa = std::make_shared<isa::IsaRegistry>(isa_dir, unit_overrides);
             return t;
           }),
           py::arg("opcodes"), py::arg("lowering"), py::arg("isa_dir"),
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
      .def(
          "add_texture",
          [](ptx::DeviceMemory& mem, uint64_t ptr, uint64_t count, uint32_t elem_bytes, const std::string& kind) {
            return mem.add_texture(ptr, count, elem_bytes, kind.empty() ? 'f' : kind[0]);
          })
      .def_property_readonly("bytes_allocated", &ptx::DeviceMemory::bytes_allocated);

  // One launch's blocks, emulated one at a time (for save_trace): each as
  // (coord, raw records bytes, warp_begin, addresses).
  py::class_<sim::PtxKernelSource>(m, "PtxBlocks")
      .def(py::init([](const PtxTables& t, const py::dict& d, uint32_t version, uint32_t regs, uint32_t id) {
             auto mod = d["module"].cast<std::shared_ptr<ptx::Module>>();
             auto L = make_launch(t, mod, d, version);
             std::shared_ptr<const isa::IsaTable> table(t.isa, &t.isa->for_version(version, "<ptx>", 0));
             if (d.contains("regs")) regs = d["regs"].cast<uint32_t>();
             return std::make_unique<sim::PtxKernelSource>(L, table, id, d["stream"].cast<uint64_t>(), regs);
           }),
           py::arg("tables"), py::arg("launch"), py::arg("binary_version"), py::arg("regs_per_thread"),
           py::arg("id"))
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
      .def("next_block", [](sim::PtxKernelSource& s) -> py::object {
        trace::ThreadBlockTrace b;
        bool more;
        {
          py::gil_scoped_release release;
          more = s.next_block(b);
        }
        if (!more) return py::none();
        py::bytes raw(reinterpret_cast<const char*>(b.insts.data()), b.insts.size() * sizeof(isa::InstRecord));
        py::bytes addrs(reinterpret_cast<const char*>(b.addrs.data()), b.addrs.size() * sizeof(uint64_t));
        return py::make_tuple(py::make_tuple(b.coord.x, b.coord.y, b.coord.z), raw, b.warp_begin, addrs);
      });

  m.def(
      "run_ptx",
      [](sim::Simulator& s, const PtxTables& t, const py::list& launches, uint32_t version,
         uint32_t regs_per_thread, py::object max_cycles, std::shared_ptr<sim::GpuSession> session,
         uint32_t first_id) {
        std::vector<sim::WorkItem> items;
        std::vector<std::pair<py::object, std::shared_ptr<std::string>>> fills;  // host arrays to fill
        std::vector<std::shared_ptr<const sim::PtxKernelSource::StreamStats>> streams;
        uint32_t id = first_id;
        for (py::handle h : launches) {
          py::dict d = h.cast<py::dict>();
          if (d.contains("copy_bytes")) {  // a copy, timed by a copy engine
            sim::WorkItem it;
            const bool to_host = d.contains("to_host") && d["to_host"].cast<bool>();
            it.kind = to_host ? sim::WorkItem::Kind::MemcpyDtoH : sim::WorkItem::Kind::MemcpyHtoD;
            it.address = d["address"].cast<uint64_t>();
            it.bytes = d["copy_bytes"].cast<uint64_t>();
            // stream None: synchronous (cudaMemcpy); else on that stream.
            if (d.contains("stream") && !d["stream"].is_none()) {
              it.async = true;
              it.stream = d["stream"].cast<uint64_t>();
            }
            // The bytes move when the copy starts in the run: "host" (to
            // host) is filled from a buffer read then; "data" (to device)
            // is written then. Without either, the data is in place already.
            auto mem = d.contains("memory") ? d["memory"].cast<std::shared_ptr<ptx::DeviceMemory>>() : nullptr;
            if (mem && to_host && d.contains("host")) {
              auto buf = std::make_shared<std::string>(it.bytes, '\0');
              it.on_start = [mem, buf, addr = it.address] { mem->read(addr, buf->data(), buf->size()); };
              fills.emplace_back(d["host"], buf);
            } else if (mem && !to_host && d.contains("data")) {
              auto buf = std::make_shared<std::string>(d["data"].cast<std::string>());
              if (buf->size() != it.bytes) throw py::value_error("copy data is not copy_bytes long");
              it.on_start = [mem, buf, addr = it.address] { mem->write(addr, buf->data(), buf->size()); };
            }
            items.push_back(std::move(it));
            continue;
          }
          auto mod = d["module"].cast<std::shared_ptr<ptx::Module>>();
          auto L = make_launch(t, mod, d, version);
          std::shared_ptr<const isa::IsaTable> table(t.isa, &t.isa->for_version(version, "<ptx>", 0));
          uint32_t regs = d.contains("regs") ? d["regs"].cast<uint32_t>() : regs_per_thread;
          sim::WorkItem it;
          auto src = std::make_unique<sim::PtxKernelSource>(L, table, id++, d["stream"].cast<uint64_t>(), regs,
                                                            /*streamed=*/true);
          streams.push_back(src->stream_stats_handle());
          it.source = std::move(src);
          it.info = it.source->info();
          items.push_back(std::move(it));
        }
        sim::RunOptions opts;
        if (!max_cycles.is_none()) opts.max_cycles = max_cycles.cast<uint64_t>();
        sim::RunResult r;
        {
          py::gil_scoped_release release;
          sim::Workload w = sim::workload_from_items(std::move(items));
          r = session ? session->run(std::move(w), opts) : s.run(std::move(w), opts);
        }
        for (auto& [host, buf] : fills) {  // device-to-host copies the run reached
          py::buffer_info info = host.cast<py::buffer>().request(true);
          const size_t n = std::min<size_t>(buf->size(), size_t(info.size) * size_t(info.itemsize));
          std::memcpy(info.ptr, buf->data(), n);
        }
        py::dict out = run_result_to_python(r);
        uint64_t most = 0, refills = 0, dry = 0;
        for (const auto& st : streams)
          most = std::max(most, st->max_buffered), refills += st->refills, dry += st->dry_waits;
        out["record_buffer_max"] = most;  // the most records one warp held at once
        out["record_refills"] = refills;
        out["record_dry_waits"] = dry;  // refills that came after a warp had issued everything
        return out;
      },
      py::arg("simulator"), py::arg("tables"), py::arg("launches"), py::arg("binary_version"),
      py::arg("regs_per_thread"), py::arg("max_cycles") = py::none(), py::arg("session") = nullptr,
      py::arg("first_id") = 1);

  // One GPU kept across runs (a Device's synchronize() calls): see sim/gpu_session.h.
  py::class_<sim::GpuSession, std::shared_ptr<sim::GpuSession>>(m, "GpuSession")
      .def(py::init([](const sim::Simulator& s, size_t max_streams) {
             return std::make_shared<sim::GpuSession>(s.config(), max_streams);
           }),
           py::arg("simulator"), py::arg("max_streams") = 32)
      .def_property_readonly("now", &sim::GpuSession::now)
      .def_property_readonly("resets", &sim::GpuSession::resets);
}
