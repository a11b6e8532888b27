// OPT: O0 O1 O2 O3
// IGNORE-O1: cannot-deduce-type at the `memmove` of a bucket vector's growth (`push_back` inlined into `objective` on the vector the un-inlined `unordered_map::operator[]` returns): "nothing is known about" the old buffer, loaded from the returned node, and the new element's store is at a byte offset (`end - begin`) the analysis cannot place; -O0 and -O3 pass
// IGNORE-O2: the same refusal as -O1
// IGNORE-PLUGIN: the same refusal as -O2
// Scatter-add into a `std::unordered_map<int, std::vector<double>>` (a bucket per cell
// id, each a growing vector of active values), then per-bucket statistics returned as
// `std::tuple<double, double, int>` and unpacked with structured bindings, iterating the
// map with a range-for (order unspecified: the objective is a sum over buckets, order
// independent). Oracle: central finite differences and a hand-written gradient.
#include "fz_cxx.h"
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <vector>

#define N 12

static std::tuple<double, double, int> moments(const std::vector<double> &v) {
  double s = 0, ss = 0;
  for (double e : v) s += e, ss += e * e;
  return {s, ss, (int)v.size()};
}

double objective(const double *x, const int *cell) {
  std::unordered_map<int, std::vector<double>> buckets;
  for (int i = 0; i < N; i++) buckets[cell[i]].push_back(x[i] * x[i] + 0.5 * x[i]);
  double f = 0;
  for (const auto &kv : buckets) {
    auto [s, ss, n] = moments(kv.second);
    double mean = s / n;
    f += ss / n - mean * mean + 0.1 * kv.first * mean;
  }
  return f;
}

int main() {
  double x[N];
  int cell[N];
  fz_seed(136);
  fz_fill(x, N, -1, 1);
  for (int i = 0; i < N; i++) cell[i] = (i * 7) % 4;
  double dx[N] = {0};
  __enzyme_autodiff<void>((void *)objective, enzyme_dup, x, dx, enzyme_const, cell);
  double want[N], fd[N];
  for (int i = 0; i < N; i++) {
    int c = cell[i], n = 0;
    double s = 0;
    for (int j = 0; j < N; j++)
      if (cell[j] == c) n++, s += x[j] * x[j] + 0.5 * x[j];
    double v = x[i] * x[i] + 0.5 * x[i], dv = 2 * x[i] + 0.5;
    want[i] = (2 * v / n - 2 * (s / n) / n + 0.1 * c / n) * dv;
  }
  fz_check_arr("analytic", dx, want, N, 1e-12);
  fz_fd_grad_of([&] { return objective(x, cell); }, x, N, fd);
  fz_check_arr("fd", dx, fd, N, 1e-6);
  return fz_finish();
}
