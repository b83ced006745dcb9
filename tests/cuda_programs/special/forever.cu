// Launches kernels until stopped (Ctrl-C and --max-cycles tests); says
// "running" once the first kernel has been simulated.
#include <cstdio>

__global__ void spin(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 0; k < 64; ++k) d[i] = d[i] * 0.999f + 1.0f;
}

int main() {
  const int n = 1 << 14;
  float* d;
  cudaMalloc(&d, n * 4);
  for (long it = 0;; ++it) {
    spin<<<n / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    if (it == 0) {
      std::printf("running\n");
      std::fflush(stdout);
    }
  }
}
