// OPT: O0 O2
// libm exponentials and logarithms: exp expm1 exp2 log log1p log2 log10.
#include "fz_test.h"

double f_exp(double x) { return exp(x); }
double f_expm1(double x) { return expm1(x); }
double f_exp2(double x) { return exp2(x); }
double f_log(double x) { return log(x); }
double f_log1p(double x) { return log1p(x); }
double f_log2(double x) { return log2(x); }
double f_log10(double x) { return log10(x); }
double f_combo(double x) { return log(1.0 + exp(x)) - x * log2(x * x + 1.0); }

#define CHECK1(fn, x, formula)                                   \
  do {                                                           \
    double got_ = __enzyme_autodiff((void *)fn, (x));            \
    fz_check(#fn " analytic", got_, (formula), 1e-10);           \
    fz_check(#fn " fd", got_, fz_fd1(fn, (x)), 1e-6);            \
  } while (0)

int main(void) {
  fz_seed(11);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-2.0, 2.0);
    double p = fz_uniform(0.2, 5.0);
    double s = fz_uniform(-0.5, 1.0);
    CHECK1(f_exp, x, exp(x));
    CHECK1(f_expm1, x, exp(x));
    CHECK1(f_exp2, x, log(2.0) * exp2(x));
    CHECK1(f_log, p, 1.0 / p);
    CHECK1(f_log1p, s, 1.0 / (1.0 + s));
    CHECK1(f_log2, p, 1.0 / (p * log(2.0)));
    CHECK1(f_log10, p, 1.0 / (p * log(10.0)));
    CHECK1(f_combo, x, exp(x) / (1.0 + exp(x)) - log2(x * x + 1.0) - 2.0 * x * x / ((x * x + 1.0) * log(2.0)));
  }
  return fz_finish();
}
