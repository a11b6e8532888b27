// OPT: O0 O2 O3
// Enzyme's `void *__enzyme_inactive_global[] = {&g, ...}`: the listed globals carry no
// derivative, whatever they hold (it was refused as "not supported yet"). `weights` is
// read as a constant; `scratch` is a cache a noinline helper fills with x^2 and f reads
// back: declared inactive, its value counts as a constant in the derivative, exactly like
// a call of an `enzyme_inactive` function (tests/c/507), so df/dx = w1 + 3 + x^2, not the
// full derivative w1 + 3 + 3x^2. The primal values the program sees are unchanged.
// Forward mode says the same. Oracle: analytic; the full derivative of a copy of f
// without the declaration, against central finite differences.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double scratch;
double weights[3] = {1.0, 2.0, 3.0};
void *__enzyme_inactive_global[] = {(void *)&scratch, (void *)weights};

__attribute__((noinline)) void remember(double x) { scratch = x * x; }

double f(double x) {
  remember(x);
  return x * weights[1] + 3.0 * x + x * scratch;
}

double kept;

__attribute__((noinline)) void remember_kept(double x) { kept = x * x; }

double f_full(double x) {
  remember_kept(x);
  return x * weights[1] + 3.0 * x + x * kept;
}

int main(void) {
  const double xs[] = {0.5, -1.25, 2.0};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    double declared = weights[1] + 3.0 + x * x;
    fz_check("df/dx reverse (scratch constant)", __enzyme_autodiff((void *)f, x), declared,
             1e-12);
    fz_check("scratch after the gradient", scratch, x * x, 0);
    fz_check("df/dx forward (scratch constant)", __enzyme_fwddiff((void *)f, x, 1.0),
             declared, 1e-12);
    double full = weights[1] + 3.0 + 3.0 * x * x;
    fz_check("full derivative without the declaration", __enzyme_autodiff((void *)f_full, x),
             full, 1e-12);
    fz_check("full derivative, finite differences", __enzyme_autodiff((void *)f_full, x),
             fz_fd1(f_full, x), 1e-6);
  }
  return fz_finish();
}
