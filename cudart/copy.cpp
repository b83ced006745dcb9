#include "copy.h"

#include <cstring>
#include <memory>
#include <vector>

namespace accelsim::cudart {

namespace {

uint64_t span(const Rows& r, const CopyShape& s) {
  if (s.bytes() == 0) return 0;
  return (s.depth - 1) * r.slice + (s.height - 1) * r.pitch + s.width;
}

bool is_device(Runtime& rt, uint64_t p) {
  return p < ptx::DeviceMemory::kHostWindow && rt.device_addressable(p, 1);
}

// Calls f(offset in the rows, offset packed) for each row.
template <class F>
void each_row(const Rows& r, const CopyShape& s, F f) {
  for (size_t z = 0; z < s.depth; ++z)
    for (size_t y = 0; y < s.height; ++y) f(z * r.slice + y * r.pitch, (z * s.height + y) * s.width);
}

// Calls f(offset in dst, offset in src) for each row.
template <class F>
void each_row_pair(const Rows& dst, const Rows& src, const CopyShape& s, F f) {
  for (size_t z = 0; z < s.depth; ++z)
    for (size_t y = 0; y < s.height; ++y) f(z * dst.slice + y * dst.pitch, z * src.slice + y * src.pitch);
}

std::vector<uint8_t> gather_host(const Rows& r, const CopyShape& s) {
  std::vector<uint8_t> out(s.bytes());
  const auto* base = reinterpret_cast<const uint8_t*>(r.base);
  each_row(r, s, [&](uint64_t at, uint64_t packed) { std::memcpy(out.data() + packed, base + at, s.width); });
  return out;
}

}  // namespace

cudaMemcpyKind resolve_kind(Runtime& rt, cudaMemcpyKind kind, uint64_t dst, uint64_t src) {
  if (kind != cudaMemcpyDefault) return kind;
  const bool d = is_device(rt, dst), s = is_device(rt, src);
  if (d && s) return cudaMemcpyDeviceToDevice;
  if (d) return cudaMemcpyHostToDevice;
  if (s) return cudaMemcpyDeviceToHost;
  return cudaMemcpyHostToHost;
}

cudaError_t copy_rows(Runtime& rt, Rows dst, Rows src, CopyShape shape, cudaMemcpyKind kind, cudaStream_t stream,
                      bool async) {
  if (shape.bytes() == 0) return cudaSuccess;
  kind = resolve_kind(rt, kind, dst.base, src.base);
  const bool to_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool from_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if ((to_dev && !rt.device_addressable(dst.base, span(dst, shape))) ||
      (from_dev && !rt.device_addressable(src.base, span(src, shape))) || kind < 0 || kind > cudaMemcpyDefault)
    return Runtime::fail(cudaErrorInvalidValue);
  const uint64_t stream_id = rt.stream_id(stream);
  auto mem = rt.memory_ptr();
  sim::CopyCommand c;
  if (kind == cudaMemcpyHostToHost) {
    rt.synchronize();  // the host buffers may be targets of queued copies
    each_row_pair(dst, src, shape, [&](uint64_t d, uint64_t s) {
      std::memmove(reinterpret_cast<uint8_t*>(dst.base + d), reinterpret_cast<const uint8_t*>(src.base + s),
                   shape.width);
    });
    return cudaSuccess;
  }
  QueuedInfo::Kind qk;
  if (kind == cudaMemcpyHostToDevice) {
    // the host's bytes are taken now (the program may reuse its buffer)
    auto data = std::make_shared<std::vector<uint8_t>>(gather_host(src, shape));
    c.address = dst.base;
    c.bytes = shape.bytes();
    c.on_start = [mem, dst, shape, data] {
      each_row(dst, shape, [&](uint64_t at, uint64_t packed) {
        mem->write(dst.base + at, data->data() + packed, shape.width);
      });
    };
    qk = QueuedInfo::kHtoD;
  } else if (kind == cudaMemcpyDeviceToHost) {
    c.to_host = true;
    c.address = src.base;
    c.bytes = shape.bytes();
    c.on_start = [mem, dst, src, shape] {  // the host buffer is written when the copy runs
      each_row_pair(dst, src, shape, [&](uint64_t d, uint64_t s) {
        mem->read(src.base + s, reinterpret_cast<uint8_t*>(dst.base + d), shape.width);
      });
    };
    qk = QueuedInfo::kDtoH;
  } else {
    c.address = dst.base;
    c.bytes = 0;  // not timed yet: see copy.h
    c.on_start = [mem, dst, src, shape] {
      std::vector<uint8_t> row(shape.width);
      each_row_pair(dst, src, shape, [&](uint64_t d, uint64_t s) {
        mem->read(src.base + s, row.data(), shape.width);
        mem->write(dst.base + d, row.data(), shape.width);
      });
    };
    qk = QueuedInfo::kDtoD;
  }
  rt.enqueue_copy(std::move(c), qk, stream_id, !async, shape.bytes());
  if (kind == cudaMemcpyDeviceToHost && !async) rt.synchronize();
  return cudaSuccess;
}

cudaError_t copy_1d(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t stream,
                    bool async) {
  return copy_rows(rt, {reinterpret_cast<uint64_t>(dst), n, n}, {reinterpret_cast<uint64_t>(src), n, n}, {n, 1, 1},
                   kind, stream, async);
}

cudaError_t fill_rows(Runtime& rt, Rows dst, CopyShape shape, int value, cudaStream_t stream, bool async) {
  if (shape.bytes() == 0) return cudaSuccess;
  if (!rt.device_addressable(dst.base, span(dst, shape))) return Runtime::fail(cudaErrorInvalidValue);
  auto mem = rt.memory_ptr();
  sim::CopyCommand c;
  c.address = dst.base;
  c.on_start = [mem, dst, shape, byte = uint8_t(value)] {
    each_row(dst, shape, [&](uint64_t at, uint64_t) { mem->fill(dst.base + at, byte, shape.width); });
  };
  // cudaMemset is asynchronous to the host, in order on the legacy stream
  rt.enqueue_copy(std::move(c), QueuedInfo::kMemset, rt.stream_id(stream), false, shape.bytes());
  (void)async;  // cudaMemset and cudaMemsetAsync on the legacy stream queue alike
  return cudaSuccess;
}

}  // namespace accelsim::cudart
