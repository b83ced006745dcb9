// The per-thread default stream forms nvcc's --default-stream per-thread
// makes a program call (_ptds: synchronous calls, _ptsz: calls taking a
// stream). Stream 0 there means the calling thread's default stream
// (cudaStreamPerThread); otherwise they are the plain calls.
#include "api.h"

namespace {
cudaStream_t per_thread(cudaStream_t s) { return s ? s : cudaStreamPerThread; }
}  // namespace

#define PTDS(name, params, args) \
  ACCELSIM_EXPORT cudaError_t name##_ptds params { return name args; }
#define PTSZ(name, params, args, stream) \
  ACCELSIM_EXPORT cudaError_t name##_ptsz params { stream = per_thread(stream); return name args; }

PTDS(cudaMemcpy, (void* d, const void* s, size_t n, cudaMemcpyKind k), (d, s, n, k))
PTDS(cudaMemcpy2D, (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k),
     (d, dp, s, sp, w, h, k))
PTDS(cudaMemcpy3D, (const cudaMemcpy3DParms* p), (p))
PTDS(cudaMemcpyToSymbol, (const void* sym, const void* s, size_t n, size_t off, cudaMemcpyKind k),
     (sym, s, n, off, k))
PTDS(cudaMemcpyFromSymbol, (void* d, const void* sym, size_t n, size_t off, cudaMemcpyKind k),
     (d, sym, n, off, k))
PTDS(cudaMemcpy2DToArray,
     (cudaArray_t d, size_t wo, size_t ho, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k),
     (d, wo, ho, s, sp, w, h, k))
PTDS(cudaMemcpy2DFromArray,
     (void* d, size_t dp, cudaArray_const_t s, size_t wo, size_t ho, size_t w, size_t h, cudaMemcpyKind k),
     (d, dp, s, wo, ho, w, h, k))
PTDS(cudaMemset, (void* d, int v, size_t n), (d, v, n))
PTDS(cudaMemset2D, (void* d, size_t p, int v, size_t w, size_t h), (d, p, v, w, h))
PTDS(cudaMemset3D, (cudaPitchedPtr p, int v, cudaExtent e), (p, v, e))

PTSZ(cudaMemcpyAsync, (void* d, const void* s, size_t n, cudaMemcpyKind k, cudaStream_t st), (d, s, n, k, st), st)
PTSZ(cudaMemcpy2DAsync,
     (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k, cudaStream_t st),
     (d, dp, s, sp, w, h, k, st), st)
PTSZ(cudaMemcpy3DAsync, (const cudaMemcpy3DParms* p, cudaStream_t st), (p, st), st)
PTSZ(cudaMemcpyToSymbolAsync,
     (const void* sym, const void* s, size_t n, size_t off, cudaMemcpyKind k, cudaStream_t st),
     (sym, s, n, off, k, st), st)
PTSZ(cudaMemcpyFromSymbolAsync,
     (void* d, const void* sym, size_t n, size_t off, cudaMemcpyKind k, cudaStream_t st),
     (d, sym, n, off, k, st), st)
PTSZ(cudaMemcpy2DToArrayAsync,
     (cudaArray_t d, size_t wo, size_t ho, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k,
      cudaStream_t st),
     (d, wo, ho, s, sp, w, h, k, st), st)
PTSZ(cudaMemcpy2DFromArrayAsync,
     (void* d, size_t dp, cudaArray_const_t s, size_t wo, size_t ho, size_t w, size_t h, cudaMemcpyKind k,
      cudaStream_t st),
     (d, dp, s, wo, ho, w, h, k, st), st)
PTSZ(cudaMemsetAsync, (void* d, int v, size_t n, cudaStream_t st), (d, v, n, st), st)
PTSZ(cudaMemset2DAsync, (void* d, size_t p, int v, size_t w, size_t h, cudaStream_t st), (d, p, v, w, h, st), st)
PTSZ(cudaMemset3DAsync, (cudaPitchedPtr p, int v, cudaExtent e, cudaStream_t st), (p, v, e, st), st)
PTSZ(cudaStreamSynchronize, (cudaStream_t st), (st), st)
PTSZ(cudaStreamQuery, (cudaStream_t st), (st), st)
PTSZ(cudaStreamWaitEvent, (cudaStream_t st, cudaEvent_t e, unsigned f), (st, e, f), st)
PTSZ(cudaStreamGetPriority, (cudaStream_t st, int* p), (st, p), st)
PTSZ(cudaStreamGetFlags, (cudaStream_t st, unsigned* f), (st, f), st)
PTSZ(cudaEventRecord, (cudaEvent_t e, cudaStream_t st), (e, st), st)
PTSZ(cudaEventRecordWithFlags, (cudaEvent_t e, cudaStream_t st, unsigned f), (e, st, f), st)
PTSZ(cudaLaunchHostFunc, (cudaStream_t st, cudaHostFn_t fn, void* u), (st, fn, u), st)
PTSZ(cudaStreamAddCallback, (cudaStream_t st, cudaStreamCallback_t cb, void* u, unsigned f), (st, cb, u, f), st)
PTSZ(cudaLaunchCooperativeKernel, (const void* f, dim3 g, dim3 b, void** a, size_t sh, cudaStream_t st),
     (f, g, b, a, sh, st), st)
