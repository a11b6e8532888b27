// OPT: O0 O2
// A registered gradient and forward derivative for a library function the module has no
// IR for (the Bessel function j0 from libm; it also has a built-in rule since sweep9, which
// the registered one overrides): d j0/dx = -j1(x).
// Reverse mode, forward mode, and a composition with built-in math.
// Oracle: analytic (-j1) and finite differences.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct { void *tape; double r; } AugJ;
AugJ j0_aug(double x) { AugJ a = {0, j0(x)}; return a; }
double j0_rev(double x, double d_r, void *tape) { (void)tape; return -j1(x) * d_r; }
void *__enzyme_register_gradient_j0[] = {(void *)j0, (void *)j0_aug, (void *)j0_rev};

typedef struct { double primal, tangent; } DualJ;
DualJ j0_fwd(double x, double dx) { DualJ d = {j0(x), -j1(x) * dx}; return d; }
void *__enzyme_register_derivative_j0[] = {(void *)j0, (void *)j0_fwd};

double f(double x) { return exp(0.3 * x) * j0(2.0 * x); }

int main(void) {
  fz_seed(282);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(0.1, 4);
    double want = 0.3 * exp(0.3 * x) * j0(2 * x) - 2.0 * exp(0.3 * x) * j1(2 * x);
    fz_check("reverse analytic", __enzyme_autodiff((void *)f, x), want, 1e-12);
    fz_check("reverse fd", __enzyme_autodiff((void *)f, x), fz_fd1(f, x), 1e-6);
    fz_check("forward", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-12);
    fz_check("j0 itself", __enzyme_autodiff((void *)j0, x), -j1(x), 1e-14);
  }
  return fz_finish();
}
