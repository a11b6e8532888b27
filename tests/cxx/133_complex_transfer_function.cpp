// OPT: O0 O1 O2 O3
// Fitting a second-order filter in the frequency domain with `std::complex<double>`:
// H(s) = k / (s^2 + 2 zeta w0 s + w0^2) at s = i w, the misfit sum |H - H_data|^2 with
// `std::abs`, `std::arg` (phase), `std::exp`, `std::log`, `std::sqrt` and `std::pow`
// of complex values, `std::conj`, `std::real`/`std::imag`, and a complex division. The
// parameters (k, zeta, w0) are active doubles in an array. Oracle: the gradient written
// with complex calculus by hand (Wirtinger on the closed form, evaluated with
// std::complex) and central finite differences.
#include "fz_cxx.h"
#include <complex>

using cd = std::complex<double>;
#define NF 12

static double W[NF], HR[NF], HI[NF];

static cd H(double k, double zeta, double w0, double w) {
  cd s(0.0, w);
  return k / (s * s + 2.0 * zeta * w0 * s + w0 * w0);
}

double misfit(const double *p) {
  double k = p[0], zeta = p[1], w0 = p[2], f = 0;
  for (int j = 0; j < NF; j++) {
    cd h = H(k, zeta, w0, W[j]);
    cd e = h - cd(HR[j], HI[j]);
    f += std::norm(e) + 0.1 * std::real(e * std::conj(e));
    f += 0.01 * std::arg(h) * std::arg(h);
    cd lg = std::log(h);                 // log|h| + i arg h
    f += 0.01 * std::real(lg) * std::real(lg);
    f += 0.001 * std::abs(std::sqrt(h) + std::exp(0.1 * h) + std::pow(h, 2.0));
  }
  return f;
}

int main() {
  for (int j = 0; j < NF; j++) {
    W[j] = 0.2 + 0.3 * j;
    cd h = H(1.3, 0.35, 1.6, W[j]);
    HR[j] = std::real(h) * (1 + 0.05 * std::sin(j));
    HI[j] = std::imag(h) * (1 - 0.04 * std::cos(j));
  }
  double p[3] = {1.1, 0.4, 1.5}, dp[3] = {0};
  __enzyme_autodiff<void>((void *)misfit, enzyme_dup, p, dp);
  // hand-written: dH/dk = H/k, dH/dzeta = -k 2 w0 s / D^2, dH/dw0 = -k (2 zeta s + 2 w0) / D^2
  double want[3] = {0, 0, 0};
  for (int j = 0; j < NF; j++) {
    cd s(0.0, W[j]);
    cd D = s * s + 2.0 * p[1] * p[2] * s + p[2] * p[2];
    cd h = p[0] / D;
    cd dH[3] = {1.0 / D, -p[0] * 2.0 * p[2] * s / (D * D),
                -p[0] * (2.0 * p[1] * s + 2.0 * p[2]) / (D * D)};
    cd e = h - cd(HR[j], HI[j]);
    for (int q = 0; q < 3; q++) {
      // d|e|^2 = 2 Re(conj(e) de); d arg h = Im(dh / h); d log|h| = Re(dh / h)
      double dn = 2 * std::real(std::conj(e) * dH[q]);
      double darg = std::imag(dH[q] / h), dlog = std::real(dH[q] / h);
      cd g = std::sqrt(h) + std::exp(0.1 * h) + h * h;
      cd dg = (0.5 / std::sqrt(h) + 0.1 * std::exp(0.1 * h) + 2.0 * h) * dH[q];
      double dabs = std::real(std::conj(g) * dg) / std::abs(g);
      want[q] += 1.1 * dn + 0.02 * std::arg(h) * darg + 0.02 * std::log(std::abs(h)) * dlog +
                 0.001 * dabs;
    }
  }
  fz_check_arr("analytic", dp, want, 3, 1e-9);
  double fd[3];
  fz_fd_grad_of([&] { return misfit(p); }, p, 3, fd);
  fz_check_arr("fd", dp, fd, 3, 1e-6);
  return fz_finish();
}
