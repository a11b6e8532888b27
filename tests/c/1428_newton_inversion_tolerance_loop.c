// OPT: O0 O2
// enz37: inverting y = g(t) = t + a sin(t) + t^3 / 3 by Newton's method inside the
// differentiated function: a while loop that stops on a tolerance (data-dependent trip
// count), the iterate overwritten in place through a pointer, the iteration count kept
// in an int out-parameter, then a result built from the solutions. The derivative of
// the converged solution is the implicit one, dt/dy = 1 / g'(t), dt/da = -sin(t) / g'(t)
// (Newton's iteration converged to machine precision differentiates to it). Oracles:
// implicit-function analytic values, central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static void newton(double *t, double y, double a, int *iters) {
  int k = 0;
  double step;
  do {
    double g = *t + a * sin(*t) + *t * *t * *t / 3 - y;
    double dg = 1 + a * cos(*t) + *t * *t;
    step = g / dg;
    *t -= step;
    k++;
  } while (fabs(step) > 1e-15 * (1 + fabs(*t)) && k < 60);
  *iters += k;
}

double f(const double *y, int n, double a, int *iters) {
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) {
    newton(&t, y[i], a, iters); /* warm start from the previous solution */
    s += t * t + 0.5 * t;
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double y[N] = {0.4, 1.3, -0.8, 2.9, 0.05, -2.2}, a = 0.6, dy[N], want[N];
  double wa = 0, t[N];
  for (int i = 0; i < N; i++) {
    double ti = 0;
    int k = 0;
    newton(&ti, y[i], a, &k);
    t[i] = ti;
    double gp = 1 + a * cos(ti) + ti * ti, ds = 2 * ti + 0.5;
    want[i] = ds / gp;
    wa += ds * -sin(ti) / gp;
  }
  int iters = 0;
  fz_zero(dy, N);
  double da = __enzyme_autodiff((void *)f, enzyme_dup, y, dy, enzyme_const, N, a, enzyme_const,
                                &iters);
  fz_check_arr("reverse dS/dy (implicit)", dy, want, N, 1e-10);
  fz_check("reverse dS/da (implicit)", da, wa, 1e-10);
  fz_check("iterations counted once", iters > N && iters < 60 * N, 1, 0);
  int it2 = 0;
  for (int i = 0; i < N; i++) {
    double h = 1e-6, yp = y[i] + h, ym = y[i] - h, yy[N];
    memcpy(yy, y, sizeof yy);
    yy[i] = yp;
    double fp = f(yy, N, a, &it2);
    yy[i] = ym;
    double fm = f(yy, N, a, &it2);
    fz_check("central difference", dy[i], (fp - fm) / (yp - ym), 1e-6);
  }
  double v[N], jv = 0, va = 0.7;
  fz_seed(1428);
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv += want[i] * v[i];
  jv += wa * va;
  fz_check("forward <grad, v>",
           __enzyme_fwddiff((void *)f, enzyme_dup, y, v, enzyme_const, N, a, va, enzyme_const,
                            &iters),
           jv, 1e-10);
  return fz_finish();
}
