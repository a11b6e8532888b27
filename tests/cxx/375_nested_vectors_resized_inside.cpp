// OPT: O0 O2
// CFLAGS: -std=c++17
// A `std::vector<std::vector<double>>` grid owned by a struct, resized inside the
// differentiated function: `grid.resize(ny)` then each row `resize(nx, 0.0)`, filled from
// the active input, grown by one padded row (`resize(ny + 1)` then the new row's `resize`
// with a fill value computed from active data), smoothed by a 5-point stencil into a
// second grid built by `assign`, then shrunk (`resize(2)`, rows `resize(3)`) before the
// final reduction. Oracle: central finite differences and forward mode (dot-product
// identity).
#include "fz_cxx.h"
#include <cmath>
#include <vector>

struct Field {
  std::vector<std::vector<double>> grid;
  void shape(int ny, int nx) {
    grid.resize(ny);
    for (auto &row : grid) row.resize(nx, 0.0);
  }
};

double smooth_energy(const double *u, int ny, int nx) {
  Field f;
  f.shape(ny, nx);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) f.grid[j][i] = u[j * nx + i];
  double mean_last = 0;
  for (double v : f.grid[ny - 1]) mean_last += v / nx;
  f.grid.resize(ny + 1);                   // a padding row
  f.grid[ny].resize(nx, mean_last);        // filled with an active value
  std::vector<std::vector<double>> s;
  s.assign(ny + 1, std::vector<double>(nx, 0.0));
  for (int j = 1; j < ny; j++)
    for (int i = 1; i + 1 < nx; i++)
      s[j][i] = 0.5 * f.grid[j][i] + 0.125 * (f.grid[j - 1][i] + f.grid[j + 1][i] +
                                              f.grid[j][i - 1] + f.grid[j][i + 1]);
  s.resize(2);
  for (auto &row : s) row.resize(3);
  double e = 0;
  for (const auto &row : s)
    for (double v : row) e += v * v;
  for (const auto &row : f.grid) e += 0.1 * std::sin(row[0]);
  return e;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int ny = 4, nx = 5, n = ny * nx;
  double u[n], du[n] = {0}, fd[n];
  for (int k = 0; k < n; k++) u[k] = std::cos(0.9 * k + 0.2);
  __enzyme_autodiff<void>((void *)smooth_energy, enzyme_dup, u, du, enzyme_const, ny,
                          enzyme_const, nx);
  fz_fd_grad_of([&] { return smooth_energy(u, ny, nx); }, u, n, fd);
  fz_check_arr("d/du finite differences", du, fd, n, 1e-6);
  double v[n], jv, want = 0;
  for (int k = 0; k < n; k++) v[k] = std::sin(1.3 * k);
  jv = __enzyme_fwddiff<double>((void *)smooth_energy, enzyme_dup, u, v, enzyme_const, ny,
                                enzyme_const, nx);
  for (int k = 0; k < n; k++) want += du[k] * v[k];
  fz_check("forward J.v == <grad, v>", jv, want, 1e-10);
  return fz_finish();
}
