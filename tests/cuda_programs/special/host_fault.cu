// Dies in its own host code after a kernel ran, the way argv[1] says:
// "device" reads a cudaMalloc pointer on the host (SIGSEGV at a simulated
// device address), "null" writes through a null pointer (SIGSEGV),
// "abort" calls abort() (SIGABRT).
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void fill(int* p) { p[threadIdx.x] = int(threadIdx.x); }

int main(int argc, char** argv) {
  const char* how = argc > 1 ? argv[1] : "device";
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  std::printf("kernel done\n");
  std::fflush(stdout);
  volatile int* target = nullptr;
  if (std::strcmp(how, "device") == 0) target = d;
  if (std::strcmp(how, "abort") == 0) std::abort();
  std::printf("read %d\n", target[5]);
  return 0;
}
