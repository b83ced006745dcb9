// Calls a CUDA API the simulator's runtime does not implement (graphs).
#include <cstdio>

__global__ void k(int* p) { *p = 1; }

int main() {
  int* p;
  cudaMalloc(&p, 4);
  k<<<1, 1>>>(p);
  std::printf("before the graph\n");
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  std::printf("after the graph\n");
  return 0;
}
