// OPT: O0 O2
// CFLAGS: -std=c++17
// A numerical kernel templated over its scalar type T and using `std::complex<T>`
// internally (a Horner evaluation of a polynomial on the unit circle, a Goertzel-style
// recurrence and a complex exponential), instantiated for double and called for a
// real loss: |P(e^{i theta})|^2 summed over frequencies. Oracle: central differences,
// and for the pure polynomial part the analytic gradient
// d|P(z)|^2/dc_k = 2 Re(conj(P(z)) z^k).
#include "fz_cxx.h"
#include <complex>
#include <cmath>

template <typename T>
std::complex<T> horner(const T *c, int n, std::complex<T> z) {
  std::complex<T> acc(0);
  for (int k = n - 1; k >= 0; k--) acc = acc * z + c[k];
  return acc;
}

template <typename T>
T response(const T *c, int n, int m) {
  T s = 0;
  for (int j = 0; j < m; j++) {
    T th = T(2 * M_PI) * T(j) / T(m);
    std::complex<T> z = std::polar(T(1), th);
    std::complex<T> p = horner(c, n, z);
    s += std::norm(p);
  }
  return s;
}

template <typename T>
T spectral_loss(const T *c, int n, int m) {
  T r = response<T>(c, n, m);
  std::complex<T> g(0), e = std::exp(std::complex<T>(T(0), T(0.3)) * c[0]);
  for (int k = 0; k < n; k++) g = g * e + std::complex<T>(c[k], T(0.5) * c[k] * c[k]);
  return r + std::abs(g) + std::arg(g + std::complex<T>(T(2), T(0)));
}

double loss_d(const double *c, int n, int m) { return spectral_loss<double>(c, n, m); }
double resp_d(const double *c, int n, int m) { return response<double>(c, n, m); }

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5, m = 7;
  double c[n] = {0.8, -0.3, 0.45, 0.1, -0.6}, dc[n] = {0}, dr[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)loss_d, enzyme_dup, c, dc, enzyme_const, n, enzyme_const, m);
  fz_fd_grad_of([&] { return loss_d(c, n, m); }, c, n, fd);
  fz_check_arr("loss vs finite differences", dc, fd, n, 1e-6);
  __enzyme_autodiff<void>((void *)resp_d, enzyme_dup, c, dr, enzyme_const, n, enzyme_const, m);
  for (int k = 0; k < n; k++) {
    double want = 0;
    for (int j = 0; j < m; j++) {
      std::complex<double> z = std::polar(1.0, 2 * M_PI * j / m);
      want += 2 * std::real(std::conj(horner(c, n, z)) * std::pow(z, k));
    }
    fz_check("d|P|^2/dc analytic", dr[k], want, 1e-11);
  }
  return fz_finish();
}
