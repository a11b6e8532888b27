// OPT: O0 O1 O2 O3
// Enzyme's Brusselator harness as its users copy it: the two outputs passed as
// `enzyme_dupnoneed, nullptr, adjoint` (no primal buffer), `__restrict__` arguments,
// clamped boundaries. Reverse mode over state and parameters, checked against central
// differences of a weighted sum of the outputs; forward mode with nullptr outputs too,
// checked against the reverse by the dot-product identity. Before the lead's
// placeholder fix the -O0 build crashed (SIGSEGV storing into address 0).
#include <cmath>
#include <vector>
#include "fz_cxx.h"
#define N 8
#define GET(p, i, j) ((p)[(i) * N + (j)])
static double brusselator_f(double x, double y, double t) {
  bool eq1 = ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6)) <= 0.01;
  bool eq2 = t >= 1.1;
  return (eq1 && eq2) ? 5.0 : 0.0;
}
void brusselator_2d_loop(double* __restrict__ du, double* __restrict__ dv, const double* __restrict__ u,
                         const double* __restrict__ v, const double* __restrict__ p, double t) {
  double A = p[0], B = p[1], alpha = p[2], dx = 1.0 / (N - 1);
  alpha = alpha / (dx * dx);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double x = i * dx, y = j * dx;
      int ip1 = (i == N - 1) ? i : (i + 1), im1 = (i == 0) ? i : (i - 1);
      int jp1 = (j == N - 1) ? j : (j + 1), jm1 = (j == 0) ? j : (j - 1);
      double u2v = GET(u, i, j) * GET(u, i, j) * GET(v, i, j);
      GET(du, i, j) = alpha * (GET(u, im1, j) + GET(u, ip1, j) + GET(u, i, jp1) + GET(u, i, jm1) - 4. * GET(u, i, j)) +
                      B + u2v - (A + 1.) * GET(u, i, j) + brusselator_f(x, y, t);
      GET(dv, i, j) = alpha * (GET(v, im1, j) + GET(v, ip1, j) + GET(v, i, jp1) + GET(v, i, jm1) - 4. * GET(v, i, j)) +
                      A * GET(u, i, j) - u2v;
    }
}
static double weighted(const double* x, const double* p, const double* w) {
  std::vector<double> out(2 * N * N);
  brusselator_2d_loop(out.data(), out.data() + N * N, x, x + N * N, p, 2.0);
  double s = 0; for (int k = 0; k < 2 * N * N; k++) s += w[k] * out[k];
  return s;
}
int main() {
  std::vector<double> x(2 * N * N), dx(2 * N * N, 0.0), w(2 * N * N), adj(2 * N * N);
  double p[3] = {3.4, 1.0, 10.0}, dp[3] = {0, 0, 0};
  for (int k = 0; k < 2 * N * N; k++) { x[k] = 0.5 + 0.01 * ((k * 37) % 17); w[k] = 0.1 + 0.02 * ((k * 13) % 11); }
  adj = w;
  __enzyme_autodiff<void>((void *)brusselator_2d_loop, enzyme_dupnoneed, nullptr, adj.data(), enzyme_dupnoneed, nullptr,
                          adj.data() + N * N, enzyme_dup, x.data(), dx.data(), enzyme_dup, x.data() + N * N,
                          dx.data() + N * N, enzyme_dup, p, dp, enzyme_const, 2.0);
  double worst = 0;
  for (int k = 0; k < 2 * N * N; k += 7) {
    double h = 1e-6, s = x[k];
    x[k] = s + h; double fp = weighted(x.data(), p, w.data());
    x[k] = s - h; double fm = weighted(x.data(), p, w.data()); x[k] = s;
    worst = std::fmax(worst, std::fabs((fp - fm) / (2 * h) - dx[k]));
  }
  for (int k = 0; k < 3; k++) {
    double h = 1e-6, s = p[k];
    p[k] = s + h; double fp = weighted(x.data(), p, w.data());
    p[k] = s - h; double fm = weighted(x.data(), p, w.data()); p[k] = s;
    worst = std::fmax(worst, std::fabs((fp - fm) / (2 * h) - dp[k]));
  }
  // forward mode, nullptr primal outputs: tangent of the outputs along direction e
  std::vector<double> tx(2 * N * N), tout(2 * N * N, 0.0); double tp[3] = {0.1, -0.2, 0.05};
  for (int k = 0; k < 2 * N * N; k++) tx[k] = 0.01 * (k % 5);
  __enzyme_fwddiff<void>((void *)brusselator_2d_loop, enzyme_dupnoneed, nullptr, tout.data(), enzyme_dupnoneed, nullptr,
                         tout.data() + N * N, enzyme_dup, x.data(), tx.data(), enzyme_dup, x.data() + N * N,
                         tx.data() + N * N, enzyme_dup, p, tp, enzyme_const, 2.0);
  // dot-product identity: <w, J t> == <J^T w, t> = <dx, tx> + <dp, tp>
  double lhs = 0, rhs = 0;
  for (int k = 0; k < 2 * N * N; k++) { lhs += w[k] * tout[k]; rhs += dx[k] * tx[k]; }
  for (int k = 0; k < 3; k++) rhs += dp[k] * tp[k];
  fz_check("reverse vs central differences (max abs error)", worst, 0.0, 1e-5);
  fz_check("dot-product identity <w, J t> = <J^T w, t>", lhs, rhs, 1e-9);
  return fz_finish();
}
