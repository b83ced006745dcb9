#include "sim/ptx_commands.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "ptx/ptx_error.h"
#include "sim/work_items.h"

namespace accelsim::sim {

std::shared_ptr<PtxTables> PtxTables::load(const std::string& opcodes_path, const std::string& lowering_path,
                                           const std::string& isa_dir,
                                           const std::vector<std::pair<std::string, std::string>>& unit_overrides) {
  auto t = std::make_shared<PtxTables>();
  t->opcodes = ptx::OpcodeTable::load(opcodes_path);
  t->lowering = ptx::LoweringTable::load(lowering_path);
  t->isa = std::make_shared<isa::IsaRegistry>(isa_dir, unit_overrides);
  return t;
}

std::shared_ptr<PtxTables> PtxTables::load_dir(const std::string& data_dir,
                                               const std::vector<std::pair<std::string, std::string>>& unit_overrides) {
  return load(data_dir + "/ptx/opcodes.txt", data_dir + "/ptx/lowering.txt", data_dir + "/isa", unit_overrides);
}

std::shared_ptr<const isa::IsaTable> PtxTables::isa_table(uint32_t binary_version) const {
  // aliasing: the table lives as long as the registry
  return std::shared_ptr<const isa::IsaTable>(isa, &isa->for_version(binary_version, "<ptx>", 0));
}

std::shared_ptr<const ptx::Launch> make_launch(const PtxTables& tables, const PtxLaunchCommand& cmd,
                                               uint32_t binary_version) {
  if (!cmd.module) throw Error("PTX launch of '" + cmd.kernel + "' without a module");
  if (!cmd.memory) throw Error("PTX launch of '" + cmd.kernel + "' without device memory");
  if (cmd.binary_version) binary_version = cmd.binary_version;
  auto L = std::make_shared<ptx::Launch>();
  L->kernel = cmd.kernel;
  L->prog = ptx::prepare(cmd.module, cmd.kernel, *tables.isa_table(binary_version), tables.lowering, binary_version,
                         cmd.records, cmd.sass.get());
  L->static_shared = cmd.static_shared;
  L->grid = cmd.grid;
  L->block = cmd.block;
  L->dyn_shared = cmd.dyn_shared;
  L->params = cmd.params;
  L->global_addr = cmd.globals;
  if (L->global_addr.size() != cmd.module->globals.size())
    throw ptx::PtxError(cmd.module->path, 0, 0, cmd.kernel,
                        "the launch places " + std::to_string(L->global_addr.size()) + " module variables, the module "
                        "declares " + std::to_string(cmd.module->globals.size()));
  L->mem = cmd.memory;
  L->sm_count = cmd.sm_count;
  L->max_warp_insts = cmd.max_warp_insts;
  L->chunk_records = cmd.chunk_records;
  L->shmem_base = PtxKernelSource::kSharedWindow;
  L->local_base = PtxKernelSource::kLocalWindow;
  return L;
}

std::unique_ptr<PtxKernelSource> make_kernel_source(const PtxTables& tables, const PtxLaunchCommand& cmd,
                                                    uint32_t binary_version, uint32_t id, bool streamed) {
  if (cmd.binary_version) binary_version = cmd.binary_version;
  return std::make_unique<PtxKernelSource>(make_launch(tables, cmd, binary_version), tables.isa_table(binary_version),
                                           id, cmd.stream, cmd.regs_per_thread, streamed);
}

namespace {

WorkItem copy_item(const CopyCommand& c) {
  WorkItem it;
  it.kind = c.to_host ? WorkItem::Kind::MemcpyDtoH : WorkItem::Kind::MemcpyHtoD;
  it.address = c.address;
  it.bytes = c.bytes;
  if (c.stream) {
    it.async = true;
    it.stream = *c.stream;
  }
  if (c.on_start) it.on_start = c.on_start;
  if (!c.memory) return it;
  if (c.to_host && c.deliver) {
    it.on_start = [mem = c.memory, deliver = c.deliver, addr = c.address, n = c.bytes, first = c.on_start] {
      if (first) first();
      std::vector<uint8_t> buf(n);
      mem->read(addr, buf.data(), n);
      deliver(buf.data(), n);
    };
  } else if (!c.to_host && c.data && !c.data->empty()) {
    if (c.data->size() != c.bytes) throw Error("a host-to-device copy's data is not its byte count long");
    it.on_start = [mem = c.memory, data = c.data, addr = c.address, first = c.on_start] {
      if (first) first();
      mem->write(addr, data->data(), data->size());
    };
  }
  return it;
}

}  // namespace

void apply_copy(const CopyCommand& c) {
  WorkItem it = copy_item(c);
  if (it.on_start) it.on_start();
}

Workload ptx_workload(const PtxTables& tables, std::vector<PtxCommand> commands, uint32_t binary_version,
                      uint32_t first_id, std::vector<PtxStreamHandle>* streams) {
  std::vector<WorkItem> items;
  items.reserve(commands.size());
  uint32_t id = first_id;
  for (const PtxCommand& c : commands) {
    if (const auto* copy = std::get_if<CopyCommand>(&c)) {
      items.push_back(copy_item(*copy));
      continue;
    }
    const auto& launch = std::get<PtxLaunchCommand>(c);
    WorkItem it;
    auto src = make_kernel_source(tables, launch, binary_version, id++, /*streamed=*/true);
    if (streams) streams->push_back(src->stream_stats_handle());
    it.info = src->info();
    it.source = std::move(src);
    items.push_back(std::move(it));
  }
  return workload_from_items(std::move(items));
}

PtxStreamTotals sum_stream_stats(const std::vector<PtxStreamHandle>& streams) {
  PtxStreamTotals t;
  for (const auto& st : streams) {
    t.max_buffered = std::max(t.max_buffered, st->max_buffered);
    t.refills += st->refills;
    t.dry_waits += st->dry_waits;
  }
  return t;
}

RunResult run_ptx_commands(GpuSession& session, const PtxTables& tables, std::vector<PtxCommand> commands,
                           const PtxRunOptions& opts, PtxStreamTotals* totals) {
  std::vector<PtxStreamHandle> streams;
  Workload w = ptx_workload(tables, std::move(commands), opts.binary_version, opts.first_id, &streams);
  RunResult r = session.run(std::move(w), opts.run, opts.poll);
  if (totals) *totals = sum_stream_stats(streams);
  return r;
}

}  // namespace accelsim::sim
