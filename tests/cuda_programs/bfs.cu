// Breadth-first search, one kernel launch per level driven by a host loop
// that reads a "frontier not empty" flag back each iteration (as Rodinia's).
#include <vector>

#include "common.h"

__global__ void expand(const int* row, const int* col, int* level, const char* frontier, char* next, int n,
                       int depth, int* more) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !frontier[v]) return;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int u = col[e];
    if (level[u] < 0) {
      level[u] = depth + 1;
      next[u] = 1;
      *more = 1;
    }
  }
}

int main() {
  const int n = 4000, degree = 4;
  std::vector<int> row(n + 1), col;
  Rng r(21);
  for (int v = 0; v < n; ++v) {
    row[v] = int(col.size());
    for (int d = 0; d < degree; ++d) col.push_back(int(r.next() % n));
    col.push_back((v + 1) % n);  // keeps the graph connected
  }
  row[n] = int(col.size());
  int *d_row, *d_col, *d_level, *d_more;
  char *d_front, *d_next;
  CK(cudaMalloc(&d_row, (n + 1) * 4));
  CK(cudaMalloc(&d_col, col.size() * 4));
  CK(cudaMalloc(&d_level, n * 4));
  CK(cudaMalloc(&d_more, 4));
  CK(cudaMalloc(&d_front, n));
  CK(cudaMalloc(&d_next, n));
  CK(cudaMemcpy(d_row, row.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_col, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  std::vector<int> level(n, -1);
  level[0] = 0;
  CK(cudaMemcpy(d_level, level.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(d_front, 0, n));
  CK(cudaMemset(d_front, 1, 1));
  int depth = 0, more = 1;
  while (more && depth < n) {
    more = 0;
    CK(cudaMemcpy(d_more, &more, 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_next, 0, n));
    expand<<<(n + 127) / 128, 128>>>(d_row, d_col, d_level, d_front, d_next, n, depth, d_more);
    CK(cudaMemcpy(&more, d_more, 4, cudaMemcpyDeviceToHost));
    std::swap(d_front, d_next);
    ++depth;
  }
  std::vector<int> got(n);
  CK(cudaMemcpy(got.data(), d_level, n * 4, cudaMemcpyDeviceToHost));
  // host BFS for the reference levels
  std::vector<int> want(n, -1), queue{0};
  want[0] = 0;
  for (size_t q = 0; q < queue.size(); ++q)
    for (int e = row[queue[q]]; e < row[queue[q] + 1]; ++e)
      if (want[col[e]] < 0) want[col[e]] = want[queue[q]] + 1, queue.push_back(col[e]);
  long bad = 0;
  for (int v = 0; v < n; ++v) bad += got[v] != want[v];
  std::printf("%d levels\n", depth);
  return finish("bfs", bad);
}
