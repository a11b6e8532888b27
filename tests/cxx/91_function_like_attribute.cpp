// OPT: O0 O2
// Enzyme's `__attribute__((enzyme_function_like("log1p")))` written on a function
// template: its calls are differentiated as log1p's, not through its body (found by the
// sweep: Enzyme's customlog1p.cpp got the body's derivative 2 instead of 1/(1+x),
// silently). The body here is a cheap stand-in (a truncated series), so differentiating
// the body would give a visibly different number. Both instantiations (double and float),
// reverse and forward mode. Oracle: analytic d/dx log1p(x) = 1/(1+x).
#include <cmath>
#include "../c/fz_test.h"

extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" float __enzyme_autodiff_float(void *, ...);

template <typename T>
__attribute__((enzyme_function_like("log1p"))) T my_log1p(T a) {
  return a - a * a / 2;  // log1p's series, truncated: only its value is "like" log1p
}

template <typename T> T f(T x) { return 3 * my_log1p(x); }

int main() {
  const double xs[] = {0.25, 1.5, -0.4};
  for (double x : xs) {
    double want = 3.0 / (1.0 + x);
    fz_check("reverse double", __enzyme_autodiff((void *)f<double>, x), want, 1e-12);
    fz_check("forward double", __enzyme_fwddiff((void *)f<double>, x, 1.0), want, 1e-12);
    float xf = (float)x;
    float gotf = __enzyme_autodiff_float((void *)f<float>, xf);
    fz_check("reverse float", gotf, 3.0 / (1.0 + (double)xf), 1e-5);
  }
  return fz_finish();
}
