"""The CUDA-runtime bad inputs of the reliability catalogue
(docs/reliability.md): programs run under ``accelsim cuda`` as a user runs
them, built with nvcc before the cases run (``prepare``). One program of our
own (``BAD_CU``) does one wrong thing per mode given on its command line; two
more builds are wrong as a whole (linked statically, no PTX in it).
Sections: "CUDA §1" the launcher and its arguments; "CUDA §2" what a program
asks the runtime for; "CUDA §3" kernels that fault, loop or use PTX the
emulator lacks; "CUDA §4" run control (budget, Ctrl-C)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from accelsim.devtools.catalogue_cases import Case

# Each mode returns the program's exit status; a CUDA error the runtime
# returns is printed as the program's own check would. The kernels with PTX
# the emulator lacks are built into programs of their own (WITH_* macros), so
# that each case shows the one error it is about.
BAD_CU = r"""#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mma.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void store(int* a, int stride) { a[threadIdx.x * stride] = 1; }
__global__ void spin(volatile int* flag) { while (flag[0] == 0) { } }
__global__ void small(float* a) { a[threadIdx.x] += 1.0f; }
__global__ void trapping(int* a) { if (threadIdx.x == 5) __trap(); a[threadIdx.x] = 1; }
__global__ void printing(int* a) { printf("thread %d\n", a[threadIdx.x]); }
#ifdef WITH_TEX2D
__global__ void sample2d(cudaTextureObject_t t, float* out) { out[threadIdx.x] = tex2D<float>(t, threadIdx.x, 0); }
#endif
#ifdef WITH_WMMA
__global__ void tensor(const half* a, const half* b, float* c) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
#endif

static int launch_error() { CHECK(cudaGetLastError()); return 0; }

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 4096));
  CHECK(cudaMemset(d, 0, 4096));
  if (!strcmp(mode, "block2048")) { store<<<1, 2048>>>(d, 1); return launch_error(); }
  if (!strcmp(mode, "grid0")) { store<<<0, 32>>>(d, 1); return launch_error(); }
  if (!strcmp(mode, "shared1m")) { store<<<1, 32, 1 << 20>>>(d, 1); return launch_error(); }
  if (!strcmp(mode, "malloc64g")) { void* p; CHECK(cudaMalloc(&p, size_t(64) << 30)); return 0; }
  if (!strcmp(mode, "graph")) { cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0)); return 0; }
  if (!strcmp(mode, "device3")) { CHECK(cudaSetDevice(3)); return 0; }
  if (!strcmp(mode, "badcopy")) {
    int h[4] = {0}; CHECK(cudaMemcpy((void*)0x1234, h, 16, cudaMemcpyHostToDevice)); return 0;
  }
  if (!strcmp(mode, "freetwice")) { CHECK(cudaFree(d)); CHECK(cudaFree(d)); return 0; }
  if (!strcmp(mode, "events")) {
    cudaEvent_t a, b; float ms;
    CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
    CHECK(cudaEventElapsedTime(&ms, a, b)); return 0;
  }
  if (!strcmp(mode, "oob")) { store<<<1, 32>>>(d, 1 << 20); CHECK(cudaDeviceSynchronize()); return 0; }
  if (!strcmp(mode, "hostptr")) {
    int* h = (int*)std::malloc(4096);
    store<<<1, 32>>>(h, 1); CHECK(cudaDeviceSynchronize()); return 0;
  }
  if (!strcmp(mode, "spin")) { spin<<<1, 32>>>(d); CHECK(cudaDeviceSynchronize()); return 0; }
  if (!strcmp(mode, "trap")) { trapping<<<1, 32>>>(d); CHECK(cudaDeviceSynchronize()); return 0; }
  if (!strcmp(mode, "printf")) { printing<<<1, 4>>>(d); CHECK(cudaDeviceSynchronize()); return 0; }
  if (!strcmp(mode, "loop")) {  // short kernels for ever: only a budget or Ctrl-C ends it
    for (;;) { small<<<80, 256>>>((float*)d); CHECK(cudaDeviceSynchronize()); }
  }
#ifdef WITH_TEX2D
  if (!strcmp(mode, "tex2d")) {
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t arr; CHECK(cudaMallocArray(&arr, &f, 32, 1));
    float h[32] = {0}; CHECK(cudaMemcpy2DToArray(arr, 0, 0, h, 128, 128, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = arr;
    cudaTextureDesc t = {}; t.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex; CHECK(cudaCreateTextureObject(&tex, &r, &t, nullptr));
    sample2d<<<1, 32>>>(tex, (float*)d); CHECK(cudaDeviceSynchronize()); return 0;
  }
#endif
#ifdef WITH_WMMA
  if (!strcmp(mode, "wmma")) {
    half* h = (half*)d;
    tensor<<<1, 32>>>(h, h, (float*)(d + 512)); CHECK(cudaDeviceSynchronize()); return 0;
  }
#endif
  if (!strcmp(mode, "segv")) { volatile int* p = nullptr; return *p; }
  std::fprintf(stderr, "unknown mode '%s'\n", mode);
  return 2;
}
"""

SIMPLE_CU = r"""#include <cstdio>
__global__ void k(int* a) { a[threadIdx.x] = threadIdx.x; }
int main() {
  int* d; cudaMalloc(&d, 128); k<<<1, 32>>>(d);
  int h[32]; cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  std::printf("h[31] = %d\n", h[31]);
  return h[31] == 31 ? 0 : 1;
}
"""


def prepare(root: Path) -> dict:
    """Builds the programs (nothing when no nvcc works: the cases that need
    them are skipped). {bad}: BAD_CU; {bad_wmma} / {bad_tex2d}: BAD_CU with
    that kernel; {static}: SIMPLE_CU linked statically; {nopx}: SIMPLE_CU
    with SASS only."""
    from accelsim.cuda.nvcc import compile_cuda, find_nvcc

    nvcc = find_nvcc()
    if nvcc is None:
        return {}
    folder = root / "cuda"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad.cu").write_text(BAD_CU)
    (folder / "simple.cu").write_text(SIMPLE_CU)
    env = {name: compile_cuda(folder / "bad.cu", folder / name, flags=["-O2", "-arch=sm_75", *flags], nvcc=nvcc)
           for name, flags in (("bad", []), ("bad_wmma", ["-DWITH_WMMA"]), ("bad_tex2d", ["-DWITH_TEX2D"]))}
    env |= {"nopx": compile_cuda(folder / "simple.cu", folder / "nopx", nvcc=nvcc,
                                flags=["-O2", "-gencode", "arch=compute_75,code=sm_75"])}
    proc = subprocess.run([str(nvcc), "-O2", "-o", str(folder / "static"), str(folder / "simple.cu")],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:  # the wheel's nvcc has no static runtime to link
        env["static"] = folder / "static"
    return env


def _cuda(section: str, title: str, *args: str, needs: str = "bad", expect: str = "error", **kw) -> Case:
    return Case(section, title, cli=("cuda", *args), needs=needs, expect=expect, **kw)


def cases() -> list[Case]:
    return _launcher() + _api() + _kernels() + _run_control()


def _launcher() -> list[Case]:
    s = "CUDA §1"
    return [
        _cuda(s, "a program linked statically against the CUDA runtime (nvcc's default)", "--", "{static}",
              needs="static"),
        _cuda(s, "a program file that does not exist", "--", "{d}/missing", needs=""),
        _cuda(s, "a program with no CUDA in it (`/bin/true`)", "--", "/bin/true", needs=""),
        _cuda(s, "no program after `--`", "--", needs=""),
        _cuda(s, "`--config` naming no config", "--config", "NOPE", "--", "{bad}", "graph"),
        _cuda(s, "`--max-cycles 0`", "--max-cycles", "0", "--", "{bad}", "graph"),
        _cuda(s, "`--max-warp-insts 0`", "--max-warp-insts", "0", "--", "{bad}", "graph"),
        _cuda(s, "`--records bogus`", "--records", "bogus", "--", "{bad}", "graph"),
        _cuda(s, "`--out` onto an existing file", "--out", "{d}/taken", "--", "{bad}", "graph",
              files={"taken": "mine"}),
        _cuda(s, "a program built with SASS only (no PTX to emulate)", "--", "{nopx}", needs="nopx"),
        _cuda(s, "the program dies of SIGSEGV on the host", "--", "{bad}", "segv"),
    ]


def _api() -> list[Case]:
    s = "CUDA §2"
    return [
        _cuda(s, "an API the runtime does not implement (`cudaGraphCreate`)", "--", "{bad}", "graph"),
        _cuda(s, "a block of 2048 threads", "--", "{bad}", "block2048"),
        _cuda(s, "a grid of 0 blocks", "--", "{bad}", "grid0"),
        _cuda(s, "1 MiB of dynamic shared memory", "--", "{bad}", "shared1m"),
        _cuda(s, "`cudaMalloc` of 64 GiB on QV100 (32 GiB)", "--", "{bad}", "malloc64g"),
        _cuda(s, "`cudaSetDevice(3)` (one device)", "--", "{bad}", "device3"),
        _cuda(s, "`cudaMemcpy` to an address that is no allocation", "--", "{bad}", "badcopy"),
        _cuda(s, "`cudaFree` twice", "--", "{bad}", "freetwice"),
        _cuda(s, "`cudaEventElapsedTime` of events never recorded", "--", "{bad}", "events"),
    ]


def _kernels() -> list[Case]:
    s = "CUDA §3"
    return [
        _cuda(s, "a kernel storing beyond its allocation", "--", "{bad}", "oob"),
        _cuda(s, "a kernel dereferencing a host pointer", "--", "{bad}", "hostptr"),
        _cuda(s, "`__trap()` in thread 5", "--", "{bad}", "trap"),
        _cuda(s, "device `printf`", "--", "{bad}", "printf", expect="ends"),
        _cuda(s, "`tex2D` on a CUDA array (the emulator runs it)", "--", "{bad_tex2d}", "tex2d",
              needs="bad_tex2d", expect="ends"),
        _cuda(s, "`wmma` tensor-core fragments (the emulator runs them)", "--", "{bad_wmma}", "wmma",
              needs="bad_wmma", expect="ends"),
        _cuda(s, "a kernel spinning for ever, no budget: the warp-instruction bound ends it", "--", "{bad}",
              "spin", timeout=180, forbid=r"Device\("),
    ]


def _run_control() -> list[Case]:
    s = "CUDA §4"
    return [
        _cuda(s, "a loop of short kernels for ever, `--max-cycles 200000`", "--max-cycles", "200000", "--",
              "{bad}", "loop", expect="ends", timeout=120),
        _cuda(s, "Ctrl-C 8 s into a loop of short kernels", "--", "{bad}", "loop", expect="ends",
              sigint_after=8.0, timeout=30),
        _cuda(s, "Ctrl-C 8 s into a kernel spinning for ever", "--", "{bad}", "spin", expect="ends",
              sigint_after=8.0, timeout=30),
    ]
