// OPT: O0 O1 O2 O3
// probe41: the kind of program Enzyme issue #2002 reports (a wrong gradient through
// `if (v <= m[k]) m[k] = v;` over neighbours in a std::vector<std::vector<double>>):
// per cell, the min and max of its neighbours kept in a std::array<double, 2> returned
// by value and updated in place by comparisons in both spellings (`v <= m` and
// `v - m <= 0`), then a slope limiter (a ratio clamped by std::min/std::max) and a
// smooth loss; the grid passed by reference, a second grid of weights constant.
// Oracles: central differences of every cell (data without ties), forward = reverse.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>
#include "fz_cxx.h"

using Grid = std::vector<std::vector<double>>;
using MinMax = std::array<double, 2>;

MinMax neighbours(int i, int j, const Grid &phi) {
  MinMax mm{phi[i][j], phi[i][j]};
  const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
  for (int k = 0; k < 4; k++) {
    int a = i + di[k], b = j + dj[k];
    if (a < 0 || b < 0 || a >= (int)phi.size() || b >= (int)phi[a].size()) continue;
    double v = phi[a][b];
    if (v <= mm[0]) mm[0] = v;
    if (v - mm[1] >= 0) mm[1] = v;
  }
  return mm;
}

double limited(const Grid &phi, const Grid &w) {
  double s = 0;
  for (int i = 0; i < (int)phi.size(); i++)
    for (int j = 0; j < (int)phi[i].size(); j++) {
      MinMax mm = neighbours(i, j, phi);
      double span = mm[1] - mm[0] + 0.1;
      double r = (phi[i][j] - mm[0]) / span;
      double lim = std::max(0.0, std::min(1.0, 2 * r));
      s += w[i][j] * (lim * phi[i][j] + 0.5 * span * span);
    }
  return s;
}

double flat_loss(double *x, const Grid *w, int rows, int cols) {
  Grid phi(rows, std::vector<double>(cols));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) phi[i][j] = x[i * cols + j];
  return limited(phi, *w);
}

int main() {
  const int R = 4, C = 5;
  Grid phi(R, std::vector<double>(C)), dphi(R, std::vector<double>(C, 0.0)), w(R, std::vector<double>(C));
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      phi[i][j] = std::sin(1.3 * i + 0.7 * j * j) + 0.01 * (i * C + j);
      w[i][j] = 1.0 + 0.1 * ((i + 2 * j) % 5);
    }
  __enzyme_autodiff<void>((void *)limited, enzyme_dup, &phi, &dphi, enzyme_const, &w);
  auto L = [&] { return limited(phi, w); };
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) fz_check("grid grad", dphi[i][j], fz_fd(L, phi[i][j]), 1e-6);
  std::vector<double> x(R * C), dx(R * C, 0.0);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) x[i * C + j] = phi[i][j];
  __enzyme_autodiff<void>((void *)flat_loss, enzyme_dup, x.data(), dx.data(), enzyme_const, &w,
                          enzyme_const, R, enzyme_const, C);
  for (int k = 0; k < R * C; k++) {
    fz_check("flat = grid", dx[k], dphi[k / C][k % C], 1e-12);
    std::vector<double> e(R * C, 0.0);
    e[k] = 1;
    double t = __enzyme_fwddiff<double>((void *)flat_loss, enzyme_dup, x.data(), e.data(), enzyme_const, &w,
                                        enzyme_const, R, enzyme_const, C);
    fz_check("fwd = rev", t, dx[k], 1e-10);
  }
  return fz_finish();
}
