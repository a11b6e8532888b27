// OPT: O0 O1 O2 O3
// probe42: float data through std::transform / std::partial_sum / std::inner_product
// (vectorized at -O3), a DFT over std::vector<std::complex<double>> built with
// std::polar, and `enzyme_width 2` forward mode of it. Oracles: the analytic float
// gradient, central differences, forward lanes = reverse.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <vector>
#include "fz_cxx.h"

// float data through std::transform / inner_product / partial_sum (vectorized at -O3),
// std::vector<std::complex<double>> with a DFT, and width-2 forward mode over them.
float fl(const float *x, int n) {
  std::vector<float> a(x, x + n), b(n), c(n);
  std::transform(a.begin(), a.end(), b.begin(), [](float t) { return t * t + 0.5f * t; });
  std::partial_sum(b.begin(), b.end(), c.begin());
  return std::inner_product(a.begin(), a.end(), c.begin(), 0.0f) * 0.01f;
}
double dft_power(const double *x, int n) {
  std::vector<std::complex<double>> X(n);
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++) X[k] += x[j] * std::polar(1.0, -2 * M_PI * j * k / n);
  double p = 0;
  for (int k = 0; k < n; k++) p += std::norm(X[k]) * (k + 1) + std::abs(X[k]);
  return p;
}
extern "C" {
extern int enzyme_width, enzyme_dupv;
}
struct V2 { double d[2]; };
int main() {
  const int n = 16;
  float xf[n], dxf[n] = {0};
  for (int i = 0; i < n; i++) xf[i] = 0.1f * i - 0.7f;
  __enzyme_autodiff<void>((void *)fl, enzyme_dup, xf, dxf, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    // d/dx_i of 0.01 * sum_j a_j c_j, c_j = sum_{k<=j} b_k, b_k = a_k^2 + a_k/2
    double s = 0, cj = 0;
    for (int j = 0; j < n; j++) { cj += (double)xf[j] * xf[j] + 0.5 * xf[j]; if (j == i) s += cj; }
    double tail = 0;
    for (int j = i; j < n; j++) tail += xf[j];
    s += tail * (2.0 * xf[i] + 0.5);
    fz_check("float grad", dxf[i], 0.01 * s, 2e-4);
  }
  const int m = 6;
  double x[m] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[m] = {0};
  __enzyme_autodiff<void>((void *)dft_power, enzyme_dup, x, dx, enzyme_const, m);
  auto P = [&] { return dft_power(x, m); };
  for (int i = 0; i < m; i++) fz_check("dft", dx[i], fz_fd(P, x[i]), 1e-6);
  for (int i = 0; i + 1 < m; i += 2) {
    double e[2 * m] = {0};
    e[i] = 1;
    e[m + i + 1] = 1;
    V2 t = __enzyme_fwddiff<V2>((void *)dft_power, enzyme_width, 2, enzyme_dup, x, e, e + m, enzyme_const, m);
    fz_check("width2 lane0", t.d[0], dx[i], 1e-9);
    fz_check("width2 lane1", t.d[1], dx[i + 1], 1e-9);
  }
  return fz_finish();
}
