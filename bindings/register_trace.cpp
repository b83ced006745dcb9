// accelsim._core trace bindings: the ISA registry, the command list, a
// streaming kernel reader handing out one thread block at a time as NumPy
// arrays, and whole-kernel counts. Long reads run with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <mutex>
#include <type_traits>

#include "trace/kernel_counts.h"
#include "trace/kernel_header.h"
#include "trace/kernel_profile.h"
#include "trace/trace_reader.h"

namespace py = pybind11;
using namespace accelsim::trace;
namespace isa = accelsim::isa;

namespace {

// A kernel reader plus the registry its ISA table lives in (kept alive), and
// a lock: Python threads may share the object while the GIL is released.
struct PyKernelTrace {
  std::shared_ptr<const isa::IsaRegistry> registry;
  std::unique_ptr<KernelTraceReader> reader;
  ThreadBlockTrace block;
  std::mutex lock;
};

// Trace text is bytes: undecodable names become U+FFFD, paths keep their
// bytes the way Python's os.fsdecode does.
py::str text(const std::string& s) {
  return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "replace"));
}
py::str path_text(const std::string& s) {
  return py::reinterpret_steal<py::str>(PyUnicode_DecodeFSDefaultAndSize(s.data(), Py_ssize_t(s.size())));
}

py::tuple dim3(const Dim3& d) { return py::make_tuple(d.x, d.y, d.z); }

py::dict info_dict(const KernelInfo& k, const isa::IsaTable& isa) {
  py::dict d;
  d["path"] = path_text(k.path);
  d["name"] = text(k.name);
  d["id"] = k.id;
  d["grid"] = dim3(k.grid);
  d["block"] = dim3(k.block);
  d["shmem"] = k.shmem_bytes;
  d["nregs"] = k.nregs;
  d["binary_version"] = k.binary_version;
  d["stream"] = k.stream;
  d["shmem_base"] = k.shmem_base;
  d["local_base"] = k.local_base;
  d["tracer_version"] = k.tracer_version;
  d["lineinfo"] = k.lineinfo;
  d["isa"] = isa.name();
  d["isa_path"] = isa.path();
  return d;
}

py::list opcode_rows(const isa::IsaTable& isa) {
  py::list rows;
  for (size_t i = 0; i < isa.size(); ++i) {
    const isa::OpcodeInfo& o = isa.info(uint16_t(i));
    rows.append(py::make_tuple(o.name, o.unit, o.mem_space, o.flags));
  }
  return rows;
}

template <typename T>
py::array_t<T> to_array(const T* data, size_t n) {
  py::array_t<T> a(n);
  if (n) std::memcpy(a.mutable_data(), data, n * sizeof(T));
  return a;
}

// (index, coord, records as uint8 [n, 40], addrs uint64, warp_begin uint32) or None.
py::object next_block(PyKernelTrace& t) {
  std::lock_guard<std::mutex> guard(t.lock);
  bool more;
  {
    py::gil_scoped_release release;
    more = t.reader->next_block(t.block);
  }
  if (!more) return py::none();
  const ThreadBlockTrace& b = t.block;
  py::array_t<uint8_t> recs({b.insts.size(), sizeof(isa::InstRecord)});
  if (!b.insts.empty()) std::memcpy(recs.mutable_data(), b.insts.data(), b.insts.size() * sizeof(isa::InstRecord));
  return py::make_tuple(b.index, dim3(b.coord), recs, to_array(b.addrs.data(), b.addrs.size()),
                        to_array(b.warp_begin.data(), b.warp_begin.size()));
}

// Decodes and drops up to `n` blocks (GIL released); returns how many.
uint64_t skip(PyKernelTrace& t, uint64_t n) {
  std::lock_guard<std::mutex> guard(t.lock);
  py::gil_scoped_release release;
  uint64_t done = 0;
  while (done < n && t.reader->next_block(t.block)) ++done;
  return done;
}

// `matrices`: also the (opcode, memory space) count matrices as NumPy arrays
// (False: totals only, and NumPy is not imported; trace-info's start-up).
py::dict counts(PyKernelTrace& t, bool matrices) {
  std::lock_guard<std::mutex> guard(t.lock);
  KernelCounts c;
  std::string deviations;
  {
    py::gil_scoped_release release;
    c = count_kernel(*t.reader);
    deviations = t.reader->warnings().summary();  // read in full: every deviation seen
    t.reader->rewind();
  }
  py::dict d;
  d["trace_warnings"] = text(deviations);
  d["thread_blocks"] = c.thread_blocks;
  d["warp_instructions"] = c.warp_insts;
  d["thread_instructions"] = c.thread_insts;
  if (!matrices) return d;
  size_t ops = t.reader->isa().size();
  auto shaped = [&](const std::vector<uint64_t>& v) {
    py::array_t<uint64_t> a({ops, size_t(kNumMemSpaces)});
    if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(uint64_t));
    return a;
  };
  d["warp_by_opcode_space"] = shaped(c.warp_by_opcode_space);
  d["thread_by_opcode_space"] = shaped(c.thread_by_opcode_space);
  return d;
}

py::list commands(const std::string& path) {
  std::vector<Command> cmds;
  {
    py::gil_scoped_release release;
    cmds = read_command_list(path);
  }
  py::list out;
  for (const Command& c : cmds) {
    const char* kind = c.kind == Command::Kind::Kernel       ? "kernel"
                       : c.kind == Command::Kind::MemcpyHtoD ? "memcpy_htod"
                                                             : "other";
    out.append(py::make_tuple(kind, c.line, text(c.text), path_text(c.kernel_path), c.address, c.bytes));
  }
  return out;
}

// The line reader read_kernel_header takes, named through its signature so this
// file does not depend on which namespace the reader lives in.
template <class Source, class Where>
Source& source_of(KernelInfo (*)(Source&, Where&));
using HeaderSource = std::remove_reference_t<decltype(source_of(&read_kernel_header))>;

// The header alone (no ISA table needed): what a run checks before it starts.
py::dict kernel_header(const std::string& path) {
  KernelInfo k;
  {
    py::gil_scoped_release release;
    HeaderSource src(path);
    HeaderLines where;
    k = read_kernel_header(src, where);
  }
  py::dict d;
  d["path"] = path_text(path);
  d["name"] = text(k.name);
  d["id"] = k.id;
  d["stream"] = k.stream;
  d["binary_version"] = k.binary_version;
  return d;
}

// The sampling profile of one kernel trace (GIL released while reading).
py::dict kernel_profile(const std::string& path, std::shared_ptr<isa::IsaRegistry> registry, uint64_t max_blocks) {
  KernelProfile p;
  std::vector<std::string> units;
  KernelInfo info;
  const isa::IsaTable* table = nullptr;
  {
    py::gil_scoped_release release;
    KernelTraceReader reader(path, *registry);
    p = profile_kernel(reader, max_blocks);
    units = reader.isa().unit_names();
    info = reader.info();
    table = &reader.isa();  // owned by the registry, which outlives this call
  }
  py::dict d;
  d["info"] = info_dict(info, *table);
  d["blocks"] = p.blocks;
  d["complete"] = p.complete;
  d["warp_instructions"] = p.warp_insts;
  d["thread_instructions"] = p.thread_insts;
  py::dict by_unit;
  for (size_t u = 0; u < p.by_unit.size(); ++u)
    if (p.by_unit[u]) by_unit[py::str(u < units.size() ? units[u] : "other")] = p.by_unit[u];
  d["by_unit"] = by_unit;
  static const char* const kSpaces[kNumMemSpaces] = {"none", "global", "local", "shared", "const", "tex", "generic"};
  py::dict by_space;
  for (int i = 1; i < kNumMemSpaces; ++i)
    if (p.by_space[size_t(i)]) by_space[kSpaces[i]] = p.by_space[size_t(i)];
  d["by_space"] = by_space;
  d["global_bytes"] = p.global_bytes;
  d["global_lines"] = p.global_lines;
  d["line_sample"] = p.line_sample;
  d["header_bytes"] = p.header_bytes;
  d["block_bytes"] = p.block_bytes;
  return d;
}

}  // namespace

void register_trace(py::module_& m) {
  py::class_<isa::IsaRegistry, std::shared_ptr<isa::IsaRegistry>>(m, "IsaRegistry")
      .def(py::init([](const std::string& dir) {
             py::gil_scoped_release release;
             return std::make_shared<isa::IsaRegistry>(dir);
           }),
           py::arg("dir"))
      .def(py::init([](const std::string& dir, const std::vector<std::pair<std::string, std::string>>& units) {
             py::gil_scoped_release release;
             return std::make_shared<isa::IsaRegistry>(dir, units);
           }),
           py::arg("dir"), py::arg("unit_overrides"))
      .def("versions", &isa::IsaRegistry::versions)
      .def_property_readonly("dir", &isa::IsaRegistry::dir)
      .def("table", [](const isa::IsaRegistry& r, uint32_t v) {
        const isa::IsaTable& t = r.for_version(v, "binary version", 0);
        return py::make_tuple(t.name(), t.path(), opcode_rows(t), t.unit_names());
      });

  py::class_<PyKernelTrace>(m, "KernelTrace")
      .def(py::init([](const std::string& path, std::shared_ptr<isa::IsaRegistry> registry) {
             auto t = std::make_unique<PyKernelTrace>();
             t->registry = registry;
             py::gil_scoped_release release;
             t->reader = std::make_unique<KernelTraceReader>(path, *registry);
             return t;
           }),
           py::arg("path"), py::arg("registry"))
      .def_property_readonly("info", [](PyKernelTrace& t) { return info_dict(t.reader->info(), t.reader->isa()); })
      .def_property_readonly("opcodes", [](PyKernelTrace& t) { return opcode_rows(t.reader->isa()); })
      .def_property_readonly("unit_names", [](PyKernelTrace& t) { return t.reader->isa().unit_names(); })
      .def("next_block", &next_block)
      .def("skip", &skip, py::arg("count"))
      .def("rewind",
           [](PyKernelTrace& t) {
             std::lock_guard<std::mutex> guard(t.lock);
             t.reader->rewind();
           })
      .def("counts", &counts, py::arg("matrices") = true);

  m.def("read_kernel_header", &kernel_header, py::arg("path"),
        "path, name, id, stream and binary_version from a kernel trace's header.");
  m.def("read_command_list", &commands, py::arg("path"));
  m.def("profile_kernel", &kernel_profile, py::arg("path"), py::arg("registry"), py::arg("max_blocks"),
        "A kernel's sampling profile from its first max_blocks thread blocks (0: all): counts by unit "
        "class and memory space, global bytes and distinct lines, and the text bytes read.");
  m.attr("INST_RECORD_SIZE") = sizeof(isa::InstRecord);
}
