// Level-synchronous BFS in the two-kernel shape of Rodinia 3.1's bfs (the
// bundled trace /work/shared/data/traces/bfs_rodinia31_sm70), written for
// accelsim's PTX-vs-SASS comparison (docs/ptx_vs_sass.md): the same data
// layout (a node = first edge + edge count, byte flags, int costs) and the
// same work per thread, so per-kernel instruction counts can be compared.
// Block size 512 as the traced run; one launch pair per BFS level.

struct GraphNode {
  int first_edge;
  int edge_count;
};

// Expand the frontier: every frontier node labels its unvisited neighbours.
extern "C" __global__ void bfs_expand(const GraphNode* nodes, const int* edges, bool* frontier,
                                      bool* next_frontier, const bool* visited, int* cost, int node_count) {
  int v = blockIdx.x * 512 + threadIdx.x;
  if (v >= node_count || !frontier[v]) return;
  frontier[v] = false;
  // the bound is read from the node each pass, as Rodinia's loop does (a cost
  // store may alias the node, so the compiler reloads it after one)
  for (int e = nodes[v].first_edge; e < nodes[v].first_edge + nodes[v].edge_count; ++e) {
    int u = edges[e];
    if (!visited[u]) {
      cost[u] = cost[v] + 1;
      next_frontier[u] = true;
    }
  }
}

// Promote the next frontier, mark it visited and tell the host to go on.
extern "C" __global__ void bfs_advance(bool* frontier, bool* next_frontier, bool* visited, bool* again,
                                       int node_count) {
  int v = blockIdx.x * 512 + threadIdx.x;
  if (v >= node_count || !next_frontier[v]) return;
  frontier[v] = true;
  visited[v] = true;
  *again = true;
  next_frontier[v] = false;
}
