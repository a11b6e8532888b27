// OPT: O0 O2
// CFLAGS: -std=c++17
// 3x3 matrices as `std::array<std::array<double, 3>, 3>` returned by value, built from a
// parameter vector; rows taken apart with structured bindings (`auto [a, b, c] = M[0]`,
// `for (const auto &[x, y, z] : M)`), a product `A * A^T` by range-for over rows, the
// determinant by cofactors and the Frobenius norm. Reverse mode for p (enzyme_dup), forward
// mode along a direction (dot-product identity); oracle: central finite differences and
// the analytic gradient of det(A) (its cofactor matrix).
#include "fz_cxx.h"
#include <array>
#include <cmath>

using Mat3 = std::array<std::array<double, 3>, 3>;

static Mat3 from_params(const double *p) {
  Mat3 m{};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) m[i][j] = p[3 * i + j];
  return m;
}

static Mat3 mul_transpose(const Mat3 &a) {
  Mat3 r{};
  int i = 0;
  for (const auto &row : a) {
    int j = 0;
    for (const auto &[x, y, z] : a) {
      const auto &[u, v, w] = row;
      r[i][j++] = u * x + v * y + w * z;
    }
    i++;
  }
  return r;
}

static double det(const Mat3 &m) {
  auto [a, b, c] = m[0];
  auto [d, e, f] = m[1];
  auto [g, h, k] = m[2];
  return a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
}

double energy(const double *p) {
  Mat3 a = from_params(p);
  Mat3 s = mul_transpose(a);
  double fro = 0;
  for (const auto &[x, y, z] : s) fro += x * x + y * y + z * z;
  return det(a) + 0.01 * std::sqrt(fro);
}

extern int enzyme_dup;

int main() {
  double p[9] = {1.2, 0.3, -0.4, 0.1, 0.9, 0.5, -0.2, 0.6, 1.4}, dp[9] = {0}, fd[9];
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return energy(p); }, p, 9, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 9, 1e-6);
  // analytic: d det / d a_ij = cofactor C_ij; d sqrt(|S|_F^2) with S = A A^T is
  // (2 S A)_ij / |S|_F
  Mat3 a = from_params(p), s = mul_transpose(a);
  double fro = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) fro += s[i][j] * s[i][j];
  fro = std::sqrt(fro);
  double want[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      double cof = a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1];
      double sa = 0;
      for (int k = 0; k < 3; k++) sa += s[i][k] * a[k][j];
      want[3 * i + j] = cof + 0.01 * 2 * sa / fro;
    }
  fz_check_arr("d/dp analytic", dp, want, 9, 1e-10);
  double v[9] = {0.2, -0.1, 0.4, 0.3, 0.5, -0.6, 0.1, 0.7, -0.3}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, v);
  for (int i = 0; i < 9; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
