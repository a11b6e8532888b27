// OPT: O0 O1 O2 O3
// An implicit function solved by Newton's method inside the differentiated code, the
// way physics users write equations of state: `while (fabs(f) > tol && it < maxit)`,
// the iteration count depending on active values, a `do { } while` bisection fallback
// guarded by a bracket check, results through an out-pointer struct. The derivative of
// the converged root follows the implicit function theorem (dy/dp = -F_p / F_y), the
// oracle here, plus finite differences.
#include "fz_test.h"

typedef struct { double root; int iters; int used_bisection; } result;

/* F(y; a, b) = y^3 + a*y - b = 0 has one real root for a > 0 */
static double F(double y, double a, double b) { return y * y * y + a * y - b; }

void solve(double a, double b, result *res) {
  double y = b / (a + 1.0), f = F(y, a, b);
  int it = 0;
  while (fabs(f) > 1e-15 * (1.0 + fabs(b)) && it < 60) {
    double step = f / (3 * y * y + a);
    if (fabs(step) > 10.0) break; /* fall back to bisection */
    y -= step;
    f = F(y, a, b);
    it++;
  }
  res->used_bisection = 0;
  if (fabs(f) > 1e-12) {
    double lo = -fabs(b) - 1.0, hi = fabs(b) + 1.0;
    do {
      double mid = 0.5 * (lo + hi);
      if (F(mid, a, b) > 0) hi = mid; else lo = mid;
    } while (hi - lo > 1e-15);
    y = 0.5 * (lo + hi);
    res->used_bisection = 1;
  }
  res->root = y;
  res->iters = it;
}

double energy(double a, double b) {
  result r;
  solve(a, b, &r);
  return r.root * r.root + sin(r.root) * a;
}

static double A0, B0;
static double ea(double a) { return energy(a, B0); }
static double eb(double b) { return energy(A0, b); }

int main(void) {
  /* b = -3 with a = 2 would start exactly at the root (y0 = -1): no Newton step runs and
     the program computes y = b / (a + 1), whose derivative is not the implicit one */
  const double as[3] = {0.5, 2.0, 7.0}, bs[3] = {1.0, -2.5, 40.0};
  for (int k = 0; k < 3; k++) {
    A0 = as[k]; B0 = bs[k];
    fz_grad2 g = __enzyme_autodiff2((void *)energy, A0, B0);
    result r;
    solve(A0, B0, &r);
    double y = r.root, Fy = 3 * y * y + A0;
    double dyda = -y / Fy, dydb = 1.0 / Fy;
    double dEdy = 2 * y + cos(y) * A0;
    fz_check("dE/da implicit", g.d0, dEdy * dyda + sin(y), 1e-9);
    fz_check("dE/db implicit", g.d1, dEdy * dydb, 1e-9);
    fz_check("dE/da fd", g.d0, fz_fd1(ea, A0), 1e-6);
    fz_check("dE/db fd", g.d1, fz_fd1(eb, B0), 1e-6);
  }
  return fz_finish();
}
