// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// <algorithm>/<numeric> calls not covered before (sweep22), on active data: `std::merge`
// of two sorted active sequences (comparisons of active values), `std::rotate`,
// `std::stable_partition` by the sign of active values, `std::upper_bound` locating an
// active query in constant knots (piecewise-linear interpolation of active values),
// `std::fill`, `std::generate` with a lambda capturing an active scale,
// `std::exclusive_scan`, `std::reduce`, `std::midpoint`, `std::adjacent_find` on
// constant data, and `std::shuffle` of an index permutation with a seeded engine
// gathering active values. Oracles: the analytic gradient through the permutations
// (recomputed independently), finite differences, forward vs reverse.
#include "fz_cxx.h"
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#define N 6

double algos(const double *a, const double *b, double q, double s) {
  std::vector<double> A(a, a + N), B(b, b + N), M(2 * N);
  std::sort(A.begin(), A.end());
  std::sort(B.begin(), B.end());
  std::merge(A.begin(), A.end(), B.begin(), B.end(), M.begin());
  double r = 0;
  for (int i = 0; i < 2 * N; i++) r += (i + 1) * M[i];
  std::rotate(A.begin(), A.begin() + 2, A.end());
  r += 0.5 * A[0] * A[N - 1];
  std::vector<double> P(a, a + N);
  std::stable_partition(P.begin(), P.end(), [](double v) { return v < 0; });
  for (int i = 0; i < N; i++) r += 0.01 * (i + 1) * P[i] * P[i];
  static const double knots[5] = {0.0, 0.5, 1.0, 1.5, 2.0};
  int j = int(std::upper_bound(knots, knots + 5, q) - knots) - 1;
  double w = (q - knots[j]) / (knots[j + 1] - knots[j]);
  r += (1 - w) * b[j] + w * b[j + 1];
  std::vector<double> G(N);
  std::fill(G.begin(), G.end(), s);
  int k = 0;
  std::generate(G.begin(), G.end(), [&] { return s * (++k); });
  std::vector<double> E(N);
  std::exclusive_scan(G.begin(), G.end(), E.begin(), 0.0);
  r += std::reduce(E.begin(), E.end(), 0.0) * 0.1;
  r += std::midpoint(a[0], b[0]);
  static const int flags[6] = {1, 3, 3, 4, 5, 5};
  auto adj = std::adjacent_find(flags, flags + 6);
  r += a[int(adj - flags)] * 2.0;
  std::vector<int> idx(N);
  std::iota(idx.begin(), idx.end(), 0);
  std::mt19937 gen(42);
  std::shuffle(idx.begin(), idx.end(), gen);
  for (int i = 0; i < N; i++) r += 0.3 * i * b[idx[i]];
  return r;
}

int main() {
  double a[N] = {0.8, -0.3, 1.7, -1.1, 0.25, 0.6};
  double b[N] = {0.35, 1.2, -0.45, 0.95, -0.8, 1.45};
  double q = 1.23, s = 0.7;
  double da[N] = {0}, db[N] = {0};
  fz_grad2 dqs = __enzyme_autodiff<fz_grad2>((void *)algos, enzyme_dup, a, da, enzyme_dup, b, db, q, s);
  // Analytic, with the permutations recomputed here.
  double wa[N] = {0}, wb[N] = {0};
  {
    std::vector<std::pair<double, int>> all;
    for (int i = 0; i < N; i++) all.push_back({a[i], i}), all.push_back({b[i], N + i});
    std::sort(all.begin(), all.end());
    for (int r = 0; r < 2 * N; r++) {
      int id = all[r].second;
      (id < N ? wa[id] : wb[id - N]) += r + 1;
    }
    std::vector<std::pair<double, int>> sa;
    for (int i = 0; i < N; i++) sa.push_back({a[i], i});
    std::sort(sa.begin(), sa.end());
    // rotated: A[0] = sorted[2], A[N-1] = sorted[1]
    wa[sa[2].second] += 0.5 * sa[1].first;
    wa[sa[1].second] += 0.5 * sa[2].first;
    int pos = 0;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < N; i++)
        if ((a[i] < 0) == (pass == 0)) { wa[i] += 0.01 * (pos + 1) * 2 * a[i]; pos++; }
    // q = 1.23 in [1.0, 1.5): j = 2
    double w = (q - 1.0) / 0.5;
    wb[2] += 1 - w;
    wb[3] += w;
    wa[0] += 0.5;
    wb[0] += 0.5;
    wa[1] += 2.0;  // adjacent_find: flags[1] == flags[2]
    std::vector<int> idx(N);
    std::iota(idx.begin(), idx.end(), 0);
    std::mt19937 gen(42);
    std::shuffle(idx.begin(), idx.end(), gen);
    for (int i = 0; i < N; i++) wb[idx[i]] += 0.3 * i;
  }
  double dq = (b[3] - b[2]) / 0.5;
  // E = exclusive scan of s*(1..6): sum_i sum_{k<i} s(k+1) = s * sum_i i(i+1)/2 = 35 s
  double ds = 0.1 * 35;
  fz_check_arr("d/da analytic", da, wa, N, 1e-12);
  fz_check_arr("d/db analytic", db, wb, N, 1e-12);
  fz_check("d/dq analytic", dqs.d0, dq, 1e-12);
  fz_check("d/ds analytic", dqs.d1, ds, 1e-12);
  double fa[N], fb[N];
  fz_fd_grad_of([&] { return algos(a, b, q, s); }, a, N, fa);
  fz_fd_grad_of([&] { return algos(a, b, q, s); }, b, N, fb);
  fz_check_arr("d/da finite differences", da, fa, N, 1e-6);
  fz_check_arr("d/db finite differences", db, fb, N, 1e-6);
  double ta[N], tb[N], dot = 0.2 * dqs.d0 - 0.4 * dqs.d1;
  for (int i = 0; i < N; i++) ta[i] = 0.1 * i - 0.2, tb[i] = 0.3 - 0.05 * i, dot += ta[i] * da[i] + tb[i] * db[i];
  double jt = __enzyme_fwddiff<double>((void *)algos, enzyme_dup, a, ta, enzyme_dup, b, tb, q, 0.2, s, -0.4);
  fz_check("forward . t vs reverse", jt, dot, 1e-11);
  return fz_finish();
}
