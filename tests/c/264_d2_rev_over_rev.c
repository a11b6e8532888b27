// OPT: O0 O2 O3
// Reverse-over-reverse second derivatives: the differentiated function
// itself calls __enzyme_autodiff. (1) d1(x) = autodiff(f, x), then
// autodiff(d1, x) = f''(x); (2) fx(x, y) = df/dx via __enzyme_autodiff2,
// then autodiff2(fx, x, y) = (f_xx, f_xy); (3) a pointer version:
// gi(x, i) = (grad f)(x)_i, whose reverse gradient is Hessian row i.
// Oracles: analytic second derivatives, FD of the analytic first ones.
#include "fz_test.h"
#include "fz_modes.h"

/* The outer calls differentiate functions that call the hooks (a plain
 * reverse-only binary rejects them), so they go through their own hook
 * names, stubbed in the oracle-only build. */
#ifndef FZ_ORACLES_ONLY
extern double __enzyme_autodiff_outer(void *, ...);
extern fz_grad2 __enzyme_autodiff2_outer(void *, ...);
#else
#define __enzyme_autodiff_outer(...) 0.0
#define __enzyme_autodiff2_outer(...) ((fz_grad2){0.0, 0.0})
#endif

#define N 4

double f(double x) { return sin(x) * x * x + exp(-x); }
double d1(double x) { return __enzyme_autodiff((void *)f, x); }

double h(double x, double y) { return x * x * y * y * y + cos(x * y); }
double hx(double x, double y) { return __enzyme_autodiff2((void *)h, x, y).d0; }

double q(const double *x, int n) { /* sum x_i^3 + prod-pairs */
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] + (i + 1 < n ? x[i] * x[i + 1] * x[i + 1] : 0.0);
  return s;
}
double gi(const double *x, int i, int n) {
  double g[N] = {0};
  __enzyme_autodiff((void *)q, enzyme_dup, x, g, enzyme_const, n);
  return g[i];
}

static double f1(double x) { return cos(x) * x * x + 2 * x * sin(x) - exp(-x); }
static double f2(double x) { return -sin(x) * x * x + 4 * x * cos(x) + 2 * sin(x) + exp(-x); }
static double Y;
static double hx_a(double x, double y) { return 2 * x * y * y * y - y * sin(x * y); }
static double hx_x(double x) { return hx_a(x, Y); }
static double hx_y(double y) { return hx_a(Y, y); } /* Y holds x */

int main(void) {
  fz_seed(264);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-2, 2), y = fz_uniform(-1.5, 1.5);
    fz_check("f' (reverse, analytic)", d1(x), f1(x), 1e-12);
    fz_mcheck2("f'' (reverse over reverse)", __enzyme_autodiff_outer((void *)d1, x), f2(x), 1e-10,
               fz_fd1(f1, x), 1e-6);
    fz_check("h_x (reverse, analytic)", hx(x, y), hx_a(x, y), 1e-12);
    fz_grad2 s = __enzyme_autodiff2_outer((void *)hx, x, y);
    Y = y;
    double fdxx = fz_fd1(hx_x, x);
    Y = x;
    double fdxy = fz_fd1(hx_y, y);
    fz_mcheck2("h_xx", s.d0, 2 * y * y * y - y * y * cos(x * y), 1e-10, fdxx, 1e-6);
    fz_mcheck2("h_xy", s.d1, 6 * x * y * y - sin(x * y) - x * y * cos(x * y), 1e-10, fdxy, 1e-6);

    double X[N], H[N][N];
    fz_fill(X, N, -1, 1);
    memset(H, 0, sizeof H);
    for (int i = 0; i < N; i++) {
      H[i][i] = 6 * X[i] + (i > 0 ? 2 * X[i - 1] : 0.0);
      if (i + 1 < N) H[i][i + 1] = H[i + 1][i] = 2 * X[i + 1];
    }
    for (int i = 0; i < N; i++) {
      double row[N] = {0};
      __enzyme_autodiff_outer((void *)gi, enzyme_dup, X, row, enzyme_const, i, enzyme_const, N);
      fz_mcheck_arr("Hessian row (reverse over reverse)", row, H[i], N, 1e-10);
    }
  }
  return fz_finish();
}
