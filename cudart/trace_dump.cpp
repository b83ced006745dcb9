// `accelsim cuda --save-trace DIR`: instead of timing, the queue is emulated
// in command order, whole blocks at a time (as accelsim.Device.save_trace
// does), and each kernel's records are dumped raw for the launcher, which
// writes them as Accel-Sim traces with the same writer as Device.save_trace
// (accelsim.ptx.save). The dump (docs/cuda_apps.md, "Traces"):
//   DIR/commands.txt: one line per command, in order: "kernel ID FILE" or
//                     "MemcpyHtoD ADDRESS BYTES" (device-to-host copies move
//                     their bytes but are not listed: the format has none)
//   DIR/kernel-ID.raw: "accelsim-raw-blocks 1\n", a header line
//                     (name id grid.x grid.y grid.z block.x block.y block.z
//                     shmem nregs binary_version stream shmem_base local_base),
//                     then per block: u32 x y z, u32 warps, u32 warp_begin[warps+1],
//                     u64 records, InstRecord[records], u64 addresses, u64[addresses].
#include <cstdio>
#include <fstream>
#include <memory>

#include "base/error.h"
#include "runtime.h"

namespace accelsim::cudart {

namespace {

template <class T>
void put(std::ofstream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}

void dump_kernel(sim::PtxKernelSource& src, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const trace::KernelInfo& k = src.info();
  out << "accelsim-raw-blocks 1\n"
      << k.name << " " << k.id << " " << k.grid.x << " " << k.grid.y << " " << k.grid.z << " " << k.block.x << " "
      << k.block.y << " " << k.block.z << " " << k.shmem_bytes << " " << k.nregs << " " << k.binary_version << " "
      << k.stream << " " << k.shmem_base << " " << k.local_base << "\n";
  trace::ThreadBlockTrace b;
  while (src.next_block(b)) {
    put(out, b.coord.x), put(out, b.coord.y), put(out, b.coord.z);
    put(out, uint32_t(b.num_warps()));
    for (uint32_t w : b.warp_begin) put(out, w);
    put(out, uint64_t(b.insts.size()));
    out.write(reinterpret_cast<const char*>(b.insts.data()), std::streamsize(b.insts.size() * sizeof(isa::InstRecord)));
    put(out, uint64_t(b.addrs.size()));
    out.write(reinterpret_cast<const char*>(b.addrs.data()), std::streamsize(b.addrs.size() * sizeof(uint64_t)));
  }
  if (!out) throw Error("cannot write " + path);
}

}  // namespace

// Emulates the queue in command order and dumps it (see above).
void Runtime::dump_queue(std::vector<sim::PtxCommand>& queue, std::vector<QueuedInfo>& info) {
  std::ofstream listing(trace_dir_ + "/commands.txt", std::ios::app);
  for (size_t i = 0; i < queue.size(); ++i) {
    if (const auto* copy = std::get_if<sim::CopyCommand>(&queue[i])) {
      sim::apply_copy(*copy);
      if (info[i].kind == QueuedInfo::kHtoD) listing << "MemcpyHtoD " << copy->address << " " << copy->bytes << "\n";
      continue;
    }
    const uint32_t id = next_kernel_id_++;
    auto src = sim::make_kernel_source(*tables_, std::get<sim::PtxLaunchCommand>(queue[i]), arch_, id, false);
    const std::string file = "kernel-" + std::to_string(id) + ".raw";
    dump_kernel(*src, trace_dir_ + "/" + file);
    listing << "kernel " << id << " " << file << "\n";
    ++traced_kernels_;
  }
  if (!listing) throw Error("cannot write " + trace_dir_ + "/commands.txt");
}

}  // namespace accelsim::cudart
