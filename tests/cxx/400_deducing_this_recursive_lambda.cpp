// OPT: O0 O2
// CFLAGS: -std=c++23
// C++23 "deducing this": a lambda that calls itself through its explicit object parameter
// (`[&](this const auto &self, int n, double x) -> double`), no std::function, no
// Y-combinator. Two recursive lambdas: the Legendre polynomial P_n(x) by Bonnet's recursion
// (tree recursion: P_n calls P_{n-1} and P_{n-2}), and a continued fraction
// c_0 + x / (c_1 + x / (c_2 + ...)) whose coefficients are active parameters captured by
// reference. A recursive member template with `this auto &&` of a small struct accumulates
// a weighted sum.
// Oracle: P_n'(x) from the closed form n (x P_n - P_{n-1}) / (x^2 - 1), central differences,
// forward/reverse dot products.
#include "fz_cxx.h"
#include <cmath>

struct Accumulator {
  double scale;
  // Recursive through the deduced object: sum_{i<n} scale^i * w[i]
  double sum(this const auto &self, const double *w, int n) {
    if (n == 0) return 0.0;
    return w[0] + self.scale * self.sum(w + 1, n - 1);
  }
};

double legendre_model(double x, int n) {
  auto P = [](this const auto &self, int k, double t) -> double {
    if (k == 0) return 1.0;
    if (k == 1) return t;
    return ((2 * k - 1) * t * self(k - 1, t) - (k - 1) * self(k - 2, t)) / k;
  };
  return P(n, x);
}

double model(const double *p, int depth) {
  auto cf = [&](this const auto &self, int k) -> double {
    if (k == depth) return p[k];
    return p[k] + p[depth + 1] / self(k + 1);
  };
  Accumulator acc{p[1]};
  return cf(0) + acc.sum(p, depth + 1) + legendre_model(p[0], 5);
}

// Legendre by the loop recurrence, for the closed-form derivative.
static double legendre_loop(int n, double x, double *pm1) {
  double a = 1, b = x;
  if (n == 0) { *pm1 = 0; return 1; }
  for (int k = 2; k <= n; k++) {
    double c = ((2 * k - 1) * x * b - (k - 1) * a) / k;
    a = b;
    b = c;
  }
  *pm1 = a;
  return b;
}

extern int enzyme_dup, enzyme_const, enzyme_out;

int main() {
  double x = 0.37;
  double d = __enzyme_autodiff<double>((void *)legendre_model, enzyme_out, x, enzyme_const, 6);
  double pm1, pn = legendre_loop(6, x, &pm1);
  fz_check("P_6 primal", legendre_model(x, 6), pn, 1e-14);
  fz_check("P_6'(x) closed form", d, 6 * (x * pn - pm1) / (x * x - 1), 1e-12);

  const int depth = 4, n = depth + 2;
  double p[n] = {0.6, 1.4, 0.8, 1.9, 1.1, 0.35}, dp[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, depth);
  fz_fd_grad_of([&] { return model(p, depth); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  double v[n] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.7}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, depth);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
