// OPT: O0 O2
// CFLAGS: -std=c++17
// Recursion through a function pointer: an adaptive Simpson integrator that calls
// itself through a pointer stored in a struct, integrating a parameterized integrand
// (also called through a pointer). Oracle: finite differences in the parameter.
#include "fz_cxx.h"
#include <cmath>

struct Integrator;
typedef double (*integrand)(double, double);
typedef double (*recurse_t)(const Integrator *, double, double, double, int);
struct Integrator {
  integrand f;
  recurse_t self;
  double k;
};

double bump(double x, double k) { return std::exp(-k * x * x); }

double simpson(const Integrator *it, double a, double b, double whole, int depth) {
  double m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double fa = it->f(a, it->k), fb = it->f(b, it->k), fm = it->f(m, it->k);
  double left = (m - a) / 6 * (fa + 4 * it->f(lm, it->k) + fm);
  double right = (b - m) / 6 * (fm + 4 * it->f(rm, it->k) + fb);
  if (depth == 0) return left + right;
  return it->self(it, a, m, left, depth - 1) + it->self(it, m, b, right, depth - 1);
}

double integral(double k) {
  Integrator it{bump, simpson, k};
  return it.self(&it, -1.0, 2.0, 0.0, 4);
}

int main() {
  fz_seed(344);
  double k = fz_uniform(0.5, 1.5);
  double d = __enzyme_autodiff<double>((void *)integral, k);
  fz_check("dk", d, fz_fd([&] { return integral(k); }, k), 1e-6);
  return fz_finish();
}
