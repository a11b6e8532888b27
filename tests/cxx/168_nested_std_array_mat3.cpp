// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// 3x3 matrices as `std::array<std::array<double, 3>, 3>` (sweep19): product, transpose,
// determinant by cofactors, the inverse by the adjugate, and a rotation built from an
// axis-angle vector, all returning matrices by value (structured bindings and range-for
// over the rows). Loss: |R(w) A^{-1} - I|_F^2 + det(A). Reverse mode against finite
// differences and the analytic d det(A)/dA = det(A) A^{-T}; forward mode against the
// reverse (dot-product identity).
#include "fz_cxx.h"
#include <array>
#include <cmath>

using Mat = std::array<std::array<double, 3>, 3>;

static Mat mul(const Mat &a, const Mat &b) {
  Mat c{};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) c[i][j] += a[i][k] * b[k][j];
  return c;
}
static double det(const Mat &a) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}
static Mat inverse(const Mat &a) {
  Mat r{};
  double d = det(a);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      r[i][j] = (a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1]) / d;
    }
  return r;
}
static Mat rotation(const std::array<double, 3> &w) {
  auto [x, y, z] = w;
  double th = std::sqrt(x * x + y * y + z * z);
  double s = std::sin(th) / th, c = (1 - std::cos(th)) / (th * th);
  Mat k = {{{0, -z, y}, {z, 0, -x}, {-y, x, 0}}};
  Mat k2 = mul(k, k);
  Mat r{};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r[i][j] = (i == j) + s * k[i][j] + c * k2[i][j];
  return r;
}

double loss(const Mat *a, const std::array<double, 3> *w) {
  Mat m = mul(rotation(*w), inverse(*a));
  double s = 0;
  int i = 0;
  for (const auto &row : m) {
    for (int j = 0; j < 3; j++) s += (row[j] - (i == j)) * (row[j] - (i == j));
    i++;
  }
  return s + det(*a);
}

double det_of(const Mat *a) { return det(*a); }

int main() {
  Mat a = {{{2.0, 0.3, -0.5}, {0.1, 1.5, 0.4}, {-0.2, 0.6, 1.8}}}, da{};
  std::array<double, 3> w = {0.3, -0.2, 0.5}, dw{};
  __enzyme_autodiff<void>((void *)det_of, enzyme_dup, &a, &da);
  Mat ai = inverse(a);
  double d = det(a);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) fz_check("d det / dA = det A^{-T}", da[i][j], d * ai[j][i], 1e-13);
  Mat da2{};
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, &a, &da2, enzyme_dup, &w, &dw);
  auto f = [&]() { return loss(&a, &w); };
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) fz_check("dL/dA vs FD", da2[i][j], fz_fd(f, a[i][j]), 1e-6);
  for (int k = 0; k < 3; k++) fz_check("dL/dw vs FD", dw[k], fz_fd(f, w[k]), 1e-6);
  Mat va = {{{1, 0, 0.5}, {0, -1, 0}, {0.25, 0, 2}}};
  std::array<double, 3> vw = {0.5, 1.0, -0.5};
  double t = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, &a, &va, enzyme_dup, &w, &vw);
  double dot = 0;
  for (int i = 0; i < 3; i++) {
    dot += vw[i] * dw[i];
    for (int j = 0; j < 3; j++) dot += va[i][j] * da2[i][j];
  }
  fz_check("forward = <v, gradient>", t, dot, 1e-12);
  return fz_finish();
}
