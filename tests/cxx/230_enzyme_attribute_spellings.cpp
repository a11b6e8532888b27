// OPT: O0 O1 O2 O3
// Enzyme's source attributes in every spelling its clang plugin accepts: C++11
// `[[enzyme::inactive]]`, `[[enzyme_inactive]]`, GNU `__attribute__((enzyme_inactive))`,
// `[[enzyme::inactive_noblock]]`, `[[enzyme_function_like("log1p")]]`,
// `[[enzyme::function_like("log1p")]]` (clang 22 asks plugins about a scoped attribute's
// arguments by its bare name: it was an error until the plugin registered that too), and
// the hints
// `[[enzyme::nofree]]`, `[[enzyme::shouldrecompute]]`, `[[enzyme::elementwise_read]]`,
// `[[enzyme::notypeanalysis]]`, `__attribute__((enzyme_no_escaping_allocation))`, which
// change no derivative. Found by trying them: `ferrozyme c++` read only the GNU spelling
// (its -D definitions), so `[[enzyme::inactive]]` was dropped with a warning and the
// "no derivative through here" marker silently lost (54 instead of 36 below); the plugin
// knew no scoped spelling and no hint. Oracle: analytic derivatives with the inactive
// functions' results held constant (reverse and forward mode).
#include <cmath>
#include "../c/fz_test.h"

extern "C" double __enzyme_fwddiff(void *, ...);

static int calls;
// A step size the user freezes: no derivative flows through it.
[[enzyme::inactive]] __attribute__((noinline)) double step_size(double x) {
  calls++;
  return 0.5 + 0.25 * x;
}
[[enzyme_inactive]] __attribute__((noinline)) double baseline(double x) { return x * x; }
__attribute__((enzyme_inactive, noinline)) double offset(double x) { return std::sin(x); }
[[enzyme::inactive_noblock]] __attribute__((noinline)) double scale(double x) {
  return 2.0 * x;
}
// Its calls are differentiated as log1p's, not through this truncated series.
[[enzyme_function_like("log1p")]] __attribute__((noinline)) double my_log1p(double a) {
  return a - a * a / 2;
}
[[enzyme::function_like("log1p")]] __attribute__((noinline)) double my_log1p_scoped(double a) {
  return a - a * a / 2 + a * a * a / 3;
}
[[enzyme::nofree]] [[enzyme::shouldrecompute]] __attribute__((noinline)) double sq(double x) {
  return x * x;
}
[[enzyme::elementwise_read]] [[enzyme::notypeanalysis]] __attribute__((noinline)) double
sum3(const double *v) {
  return v[0] + v[1] + v[2];
}
__attribute__((enzyme_no_escaping_allocation, noinline)) double cube(double x) {
  return x * x * x;
}

// h(x) = sq(x) * step_size(x) + (x - baseline(x)) + offset(x) * x + scale(x) * x
//        + my_log1p(x) + my_log1p_scoped(x^2) + sum3({x, 2x, cube(x)})
static double h(double x) {
  double v[3] = {x, 2 * x, cube(x)};
  return sq(x) * step_size(x) + (x - baseline(x)) + offset(x) * x + scale(x) * x +
         my_log1p(x) + my_log1p_scoped(x * x) + sum3(v);
}

int main() {
  const double xs[] = {0.3, 1.2, -0.7};
  for (double x : xs) {
    double c1 = 0.5 + 0.25 * x, c3 = std::sin(x), c4 = 2.0 * x;  // held constant
    double want = 2 * x * c1 + 1 + c3 + c4 + 1 / (1 + x) + 2 * x / (1 + x * x) + 1 + 2 +
                  3 * x * x;
    fz_check("reverse", __enzyme_autodiff((void *)h, x), want, 1e-12);
    fz_check("forward", __enzyme_fwddiff((void *)h, x, 1.0), want, 1e-12);
  }
  fz_check("the inactive function still runs", calls > 0, 1, 0);
  return fz_finish();
}
