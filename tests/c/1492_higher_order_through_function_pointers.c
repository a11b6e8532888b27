// OPT: O0 O1 O2 O3
// probe41: second derivatives of a function that calls through a function pointer held
// in a constant struct (a model's callback, a C++ virtual call once lowered): forward
// over reverse (Hessian rows, scalar and enzyme_width 2), reverse over reverse, forward
// over forward and reverse over forward. The first derivative dispatches on the pointer
// with `select (p == @f), @fz_aug_f, @fz_aug_g` and calls the choice; the outer
// derivative used to look for "functions of that type whose address is taken", found
// none (derivatives are generated) and refused the program. Oracles: the analytic
// derivatives of x0^3 x1 and sin(x0) x1 (the callback chosen at run time).
#include "fz_test.h"
#include "fz_modes.h"
typedef double (*fn)(double);
static double cube(double x) { return x * x * x; }
static double sn(double x) { return sin(x); }
struct M { fn f; };
__attribute__((noinline)) double E(const double *x, const struct M *m) { return m->f(x[0]) * x[1]; }
void grad(const double *x, double *g, const struct M *m) {
  __enzyme_autodiff((void *)E, enzyme_dup, x, g, enzyme_const, m);
}
double gsum(const double *x, const struct M *m) {
  double g[2] = {0, 0};
  grad(x, g, m);
  return g[0] * 0.5 + g[1] * 2.0;
}
double tang(const double *x, const struct M *m) {
  double v[2] = {1.0, 0.5};
  return __enzyme_fwddiff((void *)E, enzyme_dup, x, v, enzyme_const, m);
}

static void check(int use_sin) {
  struct M m = {use_sin ? sn : cube};
  double x[2] = {0.7, 1.3};
  /* f, f', f'' of the chosen callback */
  double f = use_sin ? sin(x[0]) : x[0] * x[0] * x[0];
  double f1 = use_sin ? cos(x[0]) : 3 * x[0] * x[0];
  double f2 = use_sin ? -sin(x[0]) : 6 * x[0];
  (void)f;
  /* Hessian of E = f(x0) x1: [[f2 x1, f1], [f1, 0]] */
  double H[2][2] = {{f2 * x[1], f1}, {f1, 0}};
  for (int r = 0; r < 2; r++) {
    double v[2] = {r == 0, r == 1}, g[2] = {0}, hv[2] = {0};
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, &m);
    fz_check("fwd/rev grad0", g[0], f1 * x[1], 1e-12);
    for (int c = 0; c < 2; c++) fz_check("fwd/rev H", hv[c], H[r][c], 1e-12);
  }
  {
    double v0[2] = {1, 0}, v1[2] = {0.5, -2}, g[2] = {0}, h0[2] = {0}, h1[2] = {0};
    __enzyme_fwddiff((void *)grad, enzyme_width, 2, enzyme_dup, x, v0, v1, enzyme_dup, g, h0, h1,
                     enzyme_const, &m);
    for (int c = 0; c < 2; c++) {
      fz_check("fwd2/rev lane0", h0[c], H[0][c], 1e-12);
      fz_check("fwd2/rev lane1", h1[c], 0.5 * H[0][c] - 2 * H[1][c], 1e-12);
    }
  }
  /* gsum = 0.5 dE/dx0 + 2 dE/dx1; its gradient is H (0.5, 2) */
  double d[2] = {0};
  __enzyme_autodiff((void *)gsum, enzyme_dup, x, d, enzyme_const, &m);
  for (int c = 0; c < 2; c++) fz_check("rev/rev", d[c], 0.5 * H[0][c] + 2 * H[1][c], 1e-12);
  /* tang = dE . (1, 0.5); its derivative is H (1, 0.5) */
  for (int c = 0; c < 2; c++) {
    double e[2] = {c == 0, c == 1};
    double t = __enzyme_fwddiff((void *)tang, enzyme_dup, x, e, enzyme_const, &m);
    fz_check("fwd/fwd", t, H[0][c] + 0.5 * H[1][c], 1e-12);
  }
  double d2[2] = {0};
  __enzyme_autodiff((void *)tang, enzyme_dup, x, d2, enzyme_const, &m);
  for (int c = 0; c < 2; c++) fz_check("rev/fwd", d2[c], H[0][c] + 0.5 * H[1][c], 1e-12);
}

int main(void) {
  volatile int choice = 0;
  check(choice);
  check(choice + 1);
  return fz_finish();
}
