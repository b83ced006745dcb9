// Copies and fills of rows (1-D, pitched 2-D and 3-D, arrays): every
// cudaMemcpy* and cudaMemset* comes down to these. A copy between host and
// device is timed on its copy engine for the bytes it moves; a
// device-to-device copy or a fill moves its bytes at its place in the
// stream and takes no simulated time yet (documented in docs/cuda_apps.md).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "runtime.h"

namespace accelsim::cudart {

// One side of a copy: `width` bytes per row, rows `pitch` apart, slices
// (height rows) `slice` apart.
struct Rows {
  uint64_t base = 0;
  size_t pitch = 0, slice = 0;
};

struct CopyShape {
  size_t width = 0, height = 1, depth = 1;
  size_t bytes() const { return width * height * depth; }
};

// Resolves cudaMemcpyDefault from the pointers (device allocations are
// device; everything else, mapped host memory included, is host).
cudaMemcpyKind resolve_kind(Runtime& rt, cudaMemcpyKind kind, uint64_t dst, uint64_t src);

// Queues (or, host to host, does) the copy. `async`: on `stream`
// (cudaMemcpyAsync); else synchronous, a copy to the host returning once
// its bytes are there. Returns the error for a device range outside every
// allocation.
cudaError_t copy_rows(Runtime& rt, Rows dst, Rows src, CopyShape shape, cudaMemcpyKind kind, cudaStream_t stream,
                      bool async);
cudaError_t copy_1d(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t stream,
                    bool async);
// cudaMemset*: every byte of the rows set to `value`.
cudaError_t fill_rows(Runtime& rt, Rows dst, CopyShape shape, int value, cudaStream_t stream, bool async);

}  // namespace accelsim::cudart
