// One module, two kernels: `doubled` runs, `profiled` uses an instruction the
// emulator does not take (pmevent, a profiler event). The program runs the
// first and checks it, then launches the second, which must stop the program
// with an error naming that instruction and its line.
#include <cstdio>

__global__ void doubled(int* p) { p[threadIdx.x] = 2 * int(threadIdx.x); }

__global__ void profiled(int* p) {
  asm volatile("pmevent 1;");
  p[threadIdx.x] = 1;
}

int main() {
  int* d;
  int h[32];
  cudaMalloc(&d, sizeof h);
  doubled<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    if (h[i] != 2 * i) {
      std::printf("doubled: FAILED at %d\n", i);
      return 1;
    }
  std::printf("doubled: PASSED\n");
  std::fflush(stdout);
  profiled<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  std::printf("profiled: ran\n");
  return 0;
}
