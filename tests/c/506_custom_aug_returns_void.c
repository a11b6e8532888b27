// OPT: O0 O2
// A registered gradient whose augmented function returns void for a function with a
// result (a shape Enzyme accepts: the augmented function runs only side effects, the
// reverse rule recomputes what it needs): the primal result the caller uses comes from
// calling the function itself. f's registered rule says f'(x) = 1/(3 cbrt(x^2)) (true for
// its body, cbrt); g uses f's result after the call, so the forward sweep needs it.
// Oracles: analytic, and central finite differences of g.
#include "fz_test.h"

extern double __enzyme_autodiff(void *, ...);

int aug_calls = 0;

double f(double x) { return cbrt(x); }
void aug_f(double x) { (void)x; aug_calls++; }
double rev_f(double x, double d) { return d / (3.0 * cbrt(x * x)); }
void *__enzyme_register_gradient_f[3] = {(void *)f, (void *)aug_f, (void *)rev_f};

double g(double x) {
  double r = f(x);
  return r * r + sin(r);
}

int main(void) {
  const double xs[] = {2.0, 0.4, -1.7};
  for (int k = 0; k < 3; k++) {
    double x = xs[k];
    double r = cbrt(x);
    double want = (2 * r + cos(r)) / (3.0 * cbrt(x * x));
    fz_check("dg/dx analytic", __enzyme_autodiff((void *)g, x), want, 1e-12);
    double h = 1e-6;
    fz_check("dg/dx finite differences", __enzyme_autodiff((void *)g, x),
             (g(x + h) - g(x - h)) / (2 * h), 1e-7);
  }
  fz_check("the augmented function ran", aug_calls > 0 ? 1.0 : 0.0, 1.0, 0.0);
  return fz_finish();
}
