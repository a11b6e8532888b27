// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// `std::complex<double>` arithmetic in the differentiated function (sweep19): a transfer
// function H(iw) = (b0 + b1 s) / (s^2 + a1 s + a0) evaluated at several frequencies with
// `std::complex` `*`, `/`, `std::abs`, `std::arg`, `std::exp`, `std::polar` and `std::norm`,
// a loss over its magnitude and phase; and a vector of complex numbers summed with
// `std::accumulate`. Reverse mode against finite differences, forward mode against the
// reverse (dot-product identity) and against finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <complex>
#include <numeric>
#include <vector>

using cd = std::complex<double>;

double fit_loss(const double *p) {
  const double w[4] = {0.2, 0.7, 1.5, 3.0};
  double s = 0;
  for (double om : w) {
    cd sj(0.0, om);
    cd h = (p[0] + p[1] * sj) / (sj * sj + p[2] * sj + p[3]);
    double mag = std::abs(h), ph = std::arg(h);
    s += (mag - 1.0 / (1 + om)) * (mag - 1.0 / (1 + om)) + 0.1 * ph * ph;
  }
  return s;
}

double phasor_sum(const double *p) {
  std::vector<cd> z;
  for (int k = 0; k < 5; k++) z.push_back(std::polar(p[0] + 0.1 * k, p[1] * k) * std::exp(cd(0, p[2])));
  cd total = std::accumulate(z.begin(), z.end(), cd(0.0, 0.0));
  return std::norm(total) + std::real(total * std::conj(z[1])) + std::imag(z[3] / z[2]);
}

static double kV[4] = {0.5, -1.0, 0.25, 0.75};
static double grads[2][4];

// The entry points are named at each hook call (Enzyme needs the function itself, not a
// pointer chosen at run time); this compares their results with the oracles.
static void check(double (*fn)(const double *), double *p, double t, int k) {
  double fd[4];
  auto f = [&]() { return fn(p); };
  fz_fd_grad_of(f, p, 4, fd);
  fz_check_arr("gradient vs FD", grads[k], fd, 4, 1e-6);
  double dot = 0;
  for (int j = 0; j < 4; j++) dot += kV[j] * grads[k][j];
  fz_check("forward = <v, gradient>", t, dot, 1e-12);
  fz_check("forward vs FD", t, fz_fd_dir_of(f, p, kV, 4), 1e-6);
}

int main() {
  double p[4] = {1.1, 0.4, 0.9, 2.0};
  __enzyme_autodiff<void>((void *)fit_loss, enzyme_dup, p, grads[0]);
  check(fit_loss, p, __enzyme_fwddiff<double>((void *)fit_loss, enzyme_dup, p, kV), 0);
  __enzyme_autodiff<void>((void *)phasor_sum, enzyme_dup, p, grads[1]);
  check(phasor_sum, p, __enzyme_fwddiff<double>((void *)phasor_sum, enzyme_dup, p, kV), 1);
  return fz_finish();
}
