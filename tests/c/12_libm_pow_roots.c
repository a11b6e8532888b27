// OPT: O0 O2
// pow (both arguments active), sqrt, cbrt, hypot (both arguments active).
#include "fz_test.h"

double f_pow(double x, double y) { return pow(x, y); }
double f_sqrt(double x) { return sqrt(x); }
double f_cbrt(double x) { return cbrt(x); }
double f_hypot(double x, double y) { return hypot(x, y); }
double f_powi(double x) { return pow(x, 3.0) + pow(x, 0.5) + pow(x, -2.0); }

static double ea, eb;
static double pow_ctx(void *c) { (void)c; return pow(ea, eb); }
static double hyp_ctx(void *c) { (void)c; return hypot(ea, eb); }

int main(void) {
  fz_seed(12);
  for (int t = 0; t < 4; t++) {
    ea = fz_uniform(0.3, 3.0);
    eb = fz_uniform(-2.0, 2.0);
    fz_grad2 g = __enzyme_autodiff2((void *)f_pow, ea, eb);
    fz_check("dpow/dx", g.d0, eb * pow(ea, eb - 1.0), 1e-10);
    fz_check("dpow/dy", g.d1, pow(ea, eb) * log(ea), 1e-10);
    fz_check("dpow/dx fd", g.d0, fz_fd_ptr(pow_ctx, 0, &ea), 1e-6);
    fz_check("dpow/dy fd", g.d1, fz_fd_ptr(pow_ctx, 0, &eb), 1e-6);
    double x = ea;
    double d = __enzyme_autodiff((void *)f_sqrt, x);
    fz_check("dsqrt", d, 0.5 / sqrt(x), 1e-10);
    d = __enzyme_autodiff((void *)f_cbrt, x);
    fz_check("dcbrt", d, 1.0 / (3.0 * cbrt(x) * cbrt(x)), 1e-10);
    d = __enzyme_autodiff((void *)f_cbrt, -x);
    fz_check("dcbrt(neg)", d, 1.0 / (3.0 * cbrt(x) * cbrt(x)), 1e-10);
    fz_check("dcbrt fd", __enzyme_autodiff((void *)f_cbrt, x), fz_fd1(f_cbrt, x), 1e-6);
    d = __enzyme_autodiff((void *)f_powi, x);
    fz_check("dpow consts", d, 3.0 * x * x + 0.5 / sqrt(x) - 2.0 / (x * x * x), 1e-10);
    eb = fz_uniform(-2.0, 2.0);
    ea = fz_uniform(-2.0, 2.0);
    g = __enzyme_autodiff2((void *)f_hypot, ea, eb);
    double h = hypot(ea, eb);
    fz_check("dhypot/dx", g.d0, ea / h, 1e-10);
    fz_check("dhypot/dy", g.d1, eb / h, 1e-10);
    fz_check("dhypot/dx fd", g.d0, fz_fd_ptr(hyp_ctx, 0, &ea), 1e-6);
    fz_check("dhypot/dy fd", g.d1, fz_fd_ptr(hyp_ctx, 0, &eb), 1e-6);
  }
  return fz_finish();
}
