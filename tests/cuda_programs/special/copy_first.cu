// A long host-to-device copy before the only kernel: a small --max-cycles
// ends the run inside the copy, before any kernel has started.
#include <cstdio>
#include <vector>

__global__ void scale(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= 2.0f;
}

int main() {
  const int n = 1 << 22;
  std::vector<float> h(n, 1.0f);
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<n / 256, 256>>>(d, n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("copy_first: %s\n", h[n - 1] == 2.0f ? "PASSED" : "FAILED");
  return 0;
}
