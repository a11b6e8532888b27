// OPT: O0 O1 O2 O3
// Iterations written with while(1), break, continue and do-while, stopping on a
// tolerance of the active value: a fixed point x = cos(a x) + b (damped, with a
// `continue` skipping the damping on even steps), Newton for the cube root with a
// do-while, and a loop that breaks out of a nested search once a residual is small.
// Iterated to convergence, the derivatives match the implicit function theorem (the
// converged iterations contribute almost nothing: tolerance 1e-9). Oracle: analytic
// via the implicit function theorem.
#include "fz_test.h"

double fixed_point(double a, double b) {
  double x = 0.5;
  int k = 0;
  while (1) {
    double nx = cos(a * x) + b;
    k++;
    if (fabs(nx - x) < 1e-15 || k > 500) {
      x = nx;
      break;
    }
    if (k % 2 == 0) {
      x = nx;
      continue;
    }
    x = 0.5 * x + 0.5 * nx;
  }
  return x;
}

double cube_root(double c) {
  double y = c > 1 ? c : 1.0, prev;
  do {
    prev = y;
    y = y - (y * y * y - c) / (3 * y * y);
  } while (fabs(y - prev) > 1e-15 * fabs(y));
  return y;
}

/* the smallest root of t^2 - p t + q scanned on a grid, then refined by bisection */
double scan_root(double p, double q) {
  double lo = 0, hi = 0;
  for (int i = 0; i < 1000; i++) {
    double t0 = 0.01 * i, t1 = 0.01 * (i + 1);
    double f0 = t0 * t0 - p * t0 + q, f1 = t1 * t1 - p * t1 + q;
    if (f0 * f1 > 0) continue;
    lo = t0, hi = t1;
    break;
  }
  for (int it = 0; it < 200; it++) {
    double m = 0.5 * (lo + hi);
    double fm = m * m - p * m + q, flo = lo * lo - p * lo + q;
    if ((fm > 0) == (flo > 0)) lo = m;
    else hi = m;
    if (hi - lo < 1e-15) break;
  }
  /* one Newton step makes the value depend on p, q smoothly */
  double t = 0.5 * (lo + hi);
  return t - (t * t - p * t + q) / (2 * t - p);
}

int main(void) {
  double a = 0.8, b = 0.3;
  fz_grad2 g = __enzyme_autodiff2((void *)fixed_point, a, b);
  double x = fixed_point(a, b);
  /* F = x - cos(a x) - b = 0: dx/da = -x sin(ax) / (1 + a sin(ax)), dx/db = 1/(1 + a sin(ax)) */
  double den = 1 + a * sin(a * x);
  fz_check("fixed point dx/da", g.d0, -x * sin(a * x) / den, 1e-9);
  fz_check("fixed point dx/db", g.d1, 1.0 / den, 1e-9);
  double c = 5.5;
  fz_check("cube root", __enzyme_autodiff((void *)cube_root, c), 1.0 / (3 * cbrt(c) * cbrt(c)),
           1e-9);
  double p = 3.1, q = 1.7;
  fz_grad2 h = __enzyme_autodiff2((void *)scan_root, p, q);
  double t = 0.5 * (p - sqrt(p * p - 4 * q));
  fz_check("scan root dt/dp", h.d0, t / (2 * t - p), 1e-9);
  fz_check("scan root dt/dq", h.d1, -1.0 / (2 * t - p), 1e-9);
  return fz_finish();
}
