// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A shortest-path cost as a function of active edge weights (a differentiable routing
// toy): adjacency lists in `std::vector<std::vector<std::pair<int,int>>>` (edge ids),
// Dijkstra with `std::priority_queue<std::pair<double,int>, std::vector<...>,
// std::greater<>>` whose keys are active distances, `std::vector<double>` distances
// initialised to infinity, the cost to every node summed with weights. The gradient
// with respect to a weight counts the shortest paths through that edge. Oracles:
// finite differences. At -O1..-O3 it was refused with cannot-deduce-type at the pair
// moves: the element `std::vector::_M_realloc_insert` places at `new + (end - begin)`
// (filetest `gep_pointer_distance_offset_not_uniform`).
#include "fz_cxx.h"
#include <limits>
#include <queue>
#include <utility>
#include <vector>

struct Graph {
  int n;
  std::vector<std::vector<std::pair<int, int>>> adj; // (to, edge id)
};

double total_cost(const Graph *g, const double *w) {
  std::vector<double> dist(g->n, std::numeric_limits<double>::infinity());
  using item = std::pair<double, int>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> pq;
  dist[0] = 0.0;
  pq.push({0.0, 0});
  while (!pq.empty()) {
    auto [d, u] = pq.top();
    pq.pop();
    if (d > dist[u]) continue;
    for (auto [v, e] : g->adj[u]) {
      double nd = d + w[e] * w[e];
      if (nd < dist[v]) {
        dist[v] = nd;
        pq.push({nd, v});
      }
    }
  }
  double s = 0.0;
  for (int i = 1; i < g->n; i++) s += dist[i] * (1.0 + 0.1 * i);
  return s;
}

int main() {
  Graph g;
  g.n = 7;
  g.adj.resize(g.n);
  int edges[][2] = {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}, {2, 4}, {3, 5}, {4, 5}, {5, 6}, {4, 6}, {3, 6}};
  const int ne = sizeof edges / sizeof edges[0];
  for (int e = 0; e < ne; e++) g.adj[edges[e][0]].push_back({edges[e][1], e});
  double w[ne], dw[ne] = {0}, fd[ne];
  fz_seed(115);
  fz_fill(w, ne, 0.6, 1.6);
  __enzyme_autodiff<void>((void *)total_cost, enzyme_const, &g, enzyme_dup, w, dw);
  fz_fd_grad_of([&] { return total_cost(&g, w); }, w, ne, fd);
  fz_check_arr("dcost fd", dw, fd, ne, 1e-6);
  return fz_finish();
}
