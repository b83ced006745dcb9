// Searching a B+tree laid out as arrays (keys and child indices per node):
// each thread walks one query from the root to a leaf.
#include <algorithm>
#include <vector>

#include "common.h"

#define ORDER 8  // keys per node

struct Node {
  int keys[ORDER];
  int child[ORDER + 1];  // -1 in leaves
  int nkeys;
  int values[ORDER];     // leaves: the value of each key
};

__global__ void search(const Node* nodes, const int* queries, int* found, int n) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= n) return;
  int key = queries[q], at = 0;
  while (nodes[at].child[0] >= 0) {
    int i = 0;
    while (i < nodes[at].nkeys && key >= nodes[at].keys[i]) ++i;
    at = nodes[at].child[i];
  }
  int v = -1;
  for (int i = 0; i < nodes[at].nkeys; ++i)
    if (nodes[at].keys[i] == key) v = nodes[at].values[i];
  found[q] = v;
}

int main() {
  // leaves of sorted keys (even numbers), then inner levels built bottom-up
  const int nkeys = 2000;
  std::vector<Node> nodes;
  std::vector<int> level, firsts;
  for (int k = 0; k < nkeys; k += ORDER) {
    Node leaf{};
    leaf.nkeys = std::min(ORDER, nkeys - k);
    for (int i = 0; i < leaf.nkeys; ++i) leaf.keys[i] = 2 * (k + i), leaf.values[i] = 7 * (k + i) + 1;
    std::fill(leaf.child, leaf.child + ORDER + 1, -1);
    level.push_back(int(nodes.size()));
    firsts.push_back(leaf.keys[0]);
    nodes.push_back(leaf);
  }
  while (level.size() > 1) {
    std::vector<int> up, upfirst;
    for (size_t s = 0; s < level.size(); s += ORDER + 1) {
      Node in{};
      size_t kids = std::min<size_t>(ORDER + 1, level.size() - s);
      for (size_t c = 0; c < kids; ++c) in.child[c] = level[s + c];
      for (size_t c = kids; c <= ORDER; ++c) in.child[c] = -2;
      in.nkeys = int(kids) - 1;
      for (int i = 0; i < in.nkeys; ++i) in.keys[i] = firsts[s + i + 1];
      up.push_back(int(nodes.size()));
      upfirst.push_back(firsts[s]);
      nodes.push_back(in);
    }
    level.swap(up);
    firsts.swap(upfirst);
  }
  std::swap(nodes[0], nodes[level[0]]);  // the root goes first
  for (auto& nd : nodes)
    for (int& c : nd.child)
      if (c == 0) c = level[0];
      else if (c == level[0]) c = 0;
  const int nq = 3000;
  std::vector<int> q(nq);
  Rng r(29);
  for (auto& v : q) v = int(r.next() % (2 * nkeys + 10));
  Node* d_nodes;
  int *d_q, *d_found;
  CK(cudaMalloc(&d_nodes, nodes.size() * sizeof(Node)));
  CK(cudaMalloc(&d_q, nq * 4));
  CK(cudaMalloc(&d_found, nq * 4));
  CK(cudaMemcpy(d_nodes, nodes.data(), nodes.size() * sizeof(Node), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_q, q.data(), nq * 4, cudaMemcpyHostToDevice));
  search<<<(nq + 127) / 128, 128>>>(d_nodes, d_q, d_found, nq);
  std::vector<int> got(nq);
  CK(cudaMemcpy(got.data(), d_found, nq * 4, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (int i = 0; i < nq; ++i) {
    int want = (q[i] % 2 == 0 && q[i] / 2 < nkeys) ? 7 * (q[i] / 2) + 1 : -1;
    bad += got[i] != want;
  }
  return finish("btree", bad);
}
