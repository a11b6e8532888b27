// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: cannot-deduce-type at the 40-byte copies of `multi_array` iterators (`std::copy` of `array_iterator`/`sub_array` in the deep copy `std::swap` does through copy assignment), which hold pointers, strides and index bases together; -O1..-O3 and the plugin pass
// IGNORE-REF: as at -O0
// A 2-D explicit heat solver on `boost::multi_array<double, 2>` (sweep23), the grid type
// of many older research codes: the active initial field is copied into a multi_array
// with index bases shifted to -1 (ghost cells via `extents[range(-1, n+1)]`), Dirichlet
// ghosts set to zero, a `boost::multi_array` of conductivities (active) read per face,
// `swap` of two arrays per step, and the loss is the weighted final field. The map from
// the initial field is linear: the gradient equals the transposed step applied to the
// weights, computed here on plain arrays. Oracles: that hand-written adjoint for the
// initial field, central finite differences for the initial field and the conductivities.
#include "fz_cxx.h"
#include <boost/multi_array.hpp>
#include <vector>

constexpr int N = 5, STEPS = 6;
constexpr double DT = 0.1;
typedef boost::multi_array<double, 2> grid;

double heat(const double *u0, const double *kappa, int n, int steps) {
  typedef grid::extent_range range;
  grid u(boost::extents[range(-1, n + 1)][range(-1, n + 1)]);
  grid v(boost::extents[range(-1, n + 1)][range(-1, n + 1)]);
  boost::multi_array<double, 2> k(boost::extents[n][n]);
  for (int i = -1; i <= n; i++)
    for (int j = -1; j <= n; j++) u[i][j] = v[i][j] = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      u[i][j] = u0[i * n + j];
      k[i][j] = kappa[i * n + j];
    }
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        v[i][j] = u[i][j] + DT * k[i][j] * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                                            u[i][j + 1] - 4 * u[i][j]);
    std::swap(u, v);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += (1.0 + 0.1 * i - 0.05 * j) * u[i][j] * u[i][j];
  return s;
}

int main() {
  double u0[N * N], kap[N * N], du[N * N] = {0}, dk[N * N] = {0};
  fz_seed(203);
  fz_fill(u0, N * N, -1, 1);
  fz_fill(kap, N * N, 0.2, 0.9);
  __enzyme_autodiff<void>((void *)heat, enzyme_dup, u0, du, enzyme_dup, kap, dk, enzyme_const,
                          N, enzyme_const, STEPS);
  // Hand adjoint for u0: store the states, then run the transposed steps.
  std::vector<std::vector<double>> st(STEPS + 1, std::vector<double>(N * N));
  st[0].assign(u0, u0 + N * N);
  auto at = [&](const std::vector<double> &w, int i, int j) {
    return (i < 0 || j < 0 || i >= N || j >= N) ? 0.0 : w[i * N + j];
  };
  for (int s = 0; s < STEPS; s++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        st[s + 1][i * N + j] = at(st[s], i, j) + DT * kap[i * N + j] *
                               (at(st[s], i - 1, j) + at(st[s], i + 1, j) + at(st[s], i, j - 1) +
                                at(st[s], i, j + 1) - 4 * at(st[s], i, j));
  std::vector<double> lam(N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) lam[i * N + j] = 2 * (1.0 + 0.1 * i - 0.05 * j) * st[STEPS][i * N + j];
  for (int s = STEPS - 1; s >= 0; s--) {
    std::vector<double> nl(N * N, 0.0);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double l = lam[i * N + j], c = DT * kap[i * N + j];
        nl[i * N + j] += l * (1 - 4 * c);
        if (i > 0) nl[(i - 1) * N + j] += l * c;
        if (i + 1 < N) nl[(i + 1) * N + j] += l * c;
        if (j > 0) nl[i * N + j - 1] += l * c;
        if (j + 1 < N) nl[i * N + j + 1] += l * c;
      }
    lam = nl;
  }
  fz_check_arr("d/du0: transposed steps", du, lam.data(), N * N, 1e-10);
  auto f = [&] { return heat(u0, kap, N, STEPS); };
  double fu[N * N], fk[N * N];
  fz_fd_grad_of(f, u0, N * N, fu);
  fz_fd_grad_of(f, kap, N * N, fk);
  fz_check_arr("d/du0 FD", du, fu, N * N, 1e-6);
  fz_check_arr("d/dkappa FD", dk, fk, N * N, 1e-6);
  return fz_finish();
}
