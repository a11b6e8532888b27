// OPT: O0 O2
// CFLAGS: -std=c++17
// A custom forward-mode derivative (__enzyme_register_derivative_*): the registered
// function receives each argument with its tangent and returns {primal, tangent}. The
// body is a Newton iteration for the cube root whose own derivative would only
// approximate the true one; the rule gives the exact 1/(3 r^2). It counts its calls.
// Oracles: analytic (the rule's formula) and the call count.
#include "fz_cxx.h"
#include <cmath>

__attribute__((noinline)) double newton_cbrt(double a) {
  double r = a > 1 ? a : 1.0;
  for (int i = 0; i < 6; i++) r = r - (r * r * r - a) / (3 * r * r);  // not converged
  return r;
}

struct dpair {
  double primal, tangent;
};
static int fwd_calls = 0;
dpair fwd_cbrt(double a, double da) {
  fwd_calls++;
  double r = std::cbrt(a);
  return {newton_cbrt(a), da / (3 * r * r)};
}
void *__enzyme_register_derivative_cbrt[] = {(void *)newton_cbrt, (void *)fwd_cbrt};

double model(double a, double k) { return k * newton_cbrt(a * a); }

int main() {
  double a = 1.7, k = 0.9, ta = 1.0, tk = 0.0;
  double t = __enzyme_fwddiff<double>((void *)model, a, ta, k, tk);
  double r = std::cbrt(a * a);
  fz_check("tangent (rule)", t, k * (2 * a) / (3 * r * r), 1e-12);
  fz_check("rule calls", fwd_calls, 1, 0);
  return fz_finish();
}
