// OPT: O0 O2
// libm trigonometric functions: sin cos tan asin acos atan atan2.
#include "fz_test.h"

double f_sin(double x) { return sin(x); }
double f_cos(double x) { return cos(x); }
double f_tan(double x) { return tan(x); }
double f_asin(double x) { return asin(x); }
double f_acos(double x) { return acos(x); }
double f_atan(double x) { return atan(x); }
double f_atan2(double y, double x) { return atan2(y, x); }
double f_combo(double x) { return sin(x) * cos(2.0 * x) + tan(x / 3.0); }

#define CHECK1(fn, x, formula)                                   \
  do {                                                           \
    double got_ = __enzyme_autodiff((void *)fn, (x));            \
    fz_check(#fn " analytic", got_, (formula), 1e-10);           \
    fz_check(#fn " fd", got_, fz_fd1(fn, (x)), 1e-6);            \
  } while (0)

static double ey, ex;
static double atan2_ctx(void *c) { (void)c; return atan2(ey, ex); }

int main(void) {
  fz_seed(9);
  for (int t = 0; t < 3; t++) {
    double x = fz_uniform(-1.2, 1.2);
    double u = fz_uniform(-0.9, 0.9);
    CHECK1(f_sin, x, cos(x));
    CHECK1(f_cos, x, -sin(x));
    CHECK1(f_tan, x, 1.0 + tan(x) * tan(x));
    CHECK1(f_asin, u, 1.0 / sqrt(1.0 - u * u));
    CHECK1(f_acos, u, -1.0 / sqrt(1.0 - u * u));
    CHECK1(f_atan, 3.0 * x, 1.0 / (1.0 + 9.0 * x * x));
    CHECK1(f_combo, x, cos(x) * cos(2 * x) - 2.0 * sin(x) * sin(2 * x) + (1.0 + tan(x / 3) * tan(x / 3)) / 3.0);
    ey = fz_uniform(-2, 2);
    ex = fz_uniform(-2, 2);
    fz_grad2 g = __enzyme_autodiff2((void *)f_atan2, ey, ex);
    double r2 = ex * ex + ey * ey;
    fz_check("datan2/dy", g.d0, ex / r2, 1e-10);
    fz_check("datan2/dx", g.d1, -ey / r2, 1e-10);
    fz_check("datan2/dy fd", g.d0, fz_fd_ptr(atan2_ctx, 0, &ey), 1e-6);
    fz_check("datan2/dx fd", g.d1, fz_fd_ptr(atan2_ctx, 0, &ex), 1e-6);
  }
  return fz_finish();
}
