// OPT: O0 O2
// Enzyme's `__attribute__((enzyme_inactive_noblock))`: like enzyme_inactive, the calls
// of the function carry no derivative (found by the sweep: Enzyme's inactivefn_noblock
// program got the full derivative, silently). Here a weight w(x) = x^2 + 1 marked
// inactive_noblock scales a differentiable term inside a loop:
//   f(x) = sum_{k=1..3} k * w(x) * exp(x / k)
// with w held constant, df/dx = sum_k w(x) * exp(x / k) (not the product rule's extra
// 2x * k * exp(x/k) terms). A function made only of an inactive_noblock call has
// derivative 0. Reverse and forward mode both. Oracle: analytic.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

__attribute__((enzyme_inactive_noblock)) double weight(double x) { return x * x + 1.0; }

double f(double x) {
  double s = 0.0;
  for (int k = 1; k <= 3; k++)
    s += k * weight(x) * exp(x / k);
  return s;
}

double only_weight(double x) { return 2.0 * weight(x); }

int main(void) {
  const double xs[] = {0.4, -1.1, 1.7};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    double want = 0.0;
    for (int k = 1; k <= 3; k++)
      want += (x * x + 1.0) * exp(x / k);
    fz_check("reverse: weight constant", __enzyme_autodiff((void *)f, x), want, 1e-12);
    fz_check("forward: weight constant", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-12);
    fz_check("reverse: only an inactive call", __enzyme_autodiff((void *)only_weight, x), 0.0,
             1e-15);
    fz_check("forward: only an inactive call", __enzyme_fwddiff((void *)only_weight, x, 1.0),
             0.0, 1e-15);
  }
  return fz_finish();
}
