#include "sim/work_items.h"

#include <algorithm>

#include "base/error.h"
#include "trace/kernel_header.h"
#include "base/line_source.h"

namespace accelsim::sim {

namespace {

// Dense slot per distinct stream id, in order of first appearance.
void assign_slots(Workload& w) {
  for (WorkItem& it : w.items) {
    if (it.is_copy() && !it.async) continue;  // synchronous copies have no stream
    if (!it.is_copy()) ++w.kernels;
    const uint64_t stream = it.is_copy() ? it.stream : it.info.stream;
    auto pos = std::find(w.streams.begin(), w.streams.end(), stream);
    it.slot = uint32_t(pos - w.streams.begin());
    if (pos == w.streams.end()) w.streams.push_back(stream);
  }
  if (w.streams.size() > 256)
    throw ConfigError("streams", "a workload may use at most 256 streams, this one uses " +
                                     std::to_string(w.streams.size()));
  if (w.streams.empty()) w.streams.push_back(0);  // one slot even for an empty run
}

}  // namespace

Workload workload_from_commands(const std::string& path) {
  Workload w;
  for (const trace::Command& c : trace::read_command_list(path)) {
    WorkItem it;
    if (c.kind == trace::Command::Kind::MemcpyHtoD) {
      it.kind = WorkItem::Kind::MemcpyHtoD;
      it.address = c.address;
      it.bytes = c.bytes;
    } else if (c.kind == trace::Command::Kind::Kernel) {
      LineSource src(c.kernel_path);  // the header only: no decoder yet
      trace::HeaderLines where;
      it.info = trace::read_kernel_header(src, where);
      it.path = c.kernel_path;
    } else {
      continue;
    }
    w.items.push_back(std::move(it));
  }
  assign_slots(w);
  return w;
}

Workload workload_from_sources(std::vector<std::unique_ptr<KernelSource>>& kernels) {
  Workload w;
  for (auto& k : kernels) {
    WorkItem it;
    it.info = k->info();
    it.source = std::move(k);
    w.items.push_back(std::move(it));
  }
  assign_slots(w);
  return w;
}

Workload workload_from_items(std::vector<WorkItem> items) {
  Workload w;
  w.items = std::move(items);
  assign_slots(w);
  return w;
}

std::unique_ptr<KernelSource> open_kernel(WorkItem& item, const isa::IsaRegistry* isa) {
  if (item.source) return std::move(item.source);
  if (!isa) throw Error("kernel trace '" + item.path + "' needs an ISA registry");
  return std::make_unique<TraceKernelSource>(item.path, *isa);
}

}  // namespace accelsim::sim
