// OPT: O0 O1 O2 O3
// `std::complex<float>` (two floats in one eightbyte, passed as `<2 x float>`) and
// `std::complex<double>` in `std::vector`s: a discrete-time Fourier transform of a
// float signal at a few frequencies with `std::polar`, `std::accumulate` of complex
// values with a lambda, `std::abs` and `std::norm`, a complex<float> -> complex<double>
// conversion, and `std::exp` of an imaginary argument. The samples (float) and a
// damping (double) are active. Oracle: the hand-written gradient of the closed form
// and central finite differences (in double, of the float program: tolerance 2e-4).
#include "fz_cxx.h"
#include <complex>
#include <numeric>
#include <vector>

#define N 16
using cf = std::complex<float>;
using cd = std::complex<double>;

double power(const float *x, double damp) {
  double f = 0;
  for (int k = 1; k <= 3; k++) {
    std::vector<cf> terms;
    for (int n = 0; n < N; n++)
      terms.push_back(x[n] * std::polar(1.0f, -2.0f * 3.14159265f * k * n / N));
    cf X = std::accumulate(terms.begin(), terms.end(), cf(0.0f, 0.0f),
                           [](cf a, cf b) { return a + b; });
    cd Xd(X);
    cd w = std::exp(cd(-damp * k, 0.3 * k));
    f += std::norm(Xd * w) + 0.1 * std::abs(Xd);
  }
  return f;
}

int main() {
  float x[N];
  fz_seed(137);
  fz_fillf(x, N, -1, 1);
  double damp = 0.4;
  float dx[N] = {0};
  double dd = __enzyme_autodiff<double>((void *)power, enzyme_dup, x, dx, enzyme_out, damp);
  double want[N] = {0}, wd = 0;
  for (int k = 1; k <= 3; k++) {
    cd X(0, 0);
    for (int n = 0; n < N; n++)
      X += (double)x[n] * std::polar(1.0, -2.0 * 3.14159265 * k * n / N);
    double e2 = std::exp(-2 * damp * k), a = std::abs(X);
    wd += -2.0 * k * e2 * std::norm(X);
    for (int n = 0; n < N; n++) {
      cd dX = std::polar(1.0, -2.0 * 3.14159265 * k * n / N);
      double dn = 2 * std::real(std::conj(X) * dX);
      want[n] += e2 * dn + 0.1 * dn / (2 * a);
    }
  }
  for (int n = 0; n < N; n++) {
    char b[32];
    snprintf(b, sizeof b, "dx[%d]", n);
    fz_check(b, dx[n], want[n], 2e-4);
  }
  fz_check("d damp", dd, wd, 2e-4);
  fz_check("d damp fd", dd, fz_fd([&] { return power(x, damp); }, damp), 2e-4);
  return fz_finish();
}
