// OPT: O0 O1 O2 O3
// Variadic functions around a differentiated computation: a vprintf-style logger called
// with active doubles, registered inactive with `__enzyme_inactivefn` (as the error for
// active variadic arguments, tests/errors/variadic_active.c, advises), and an inactive
// variadic helper with only constant arguments (`count_flags(n, ...)` of ints). The sum
// itself reads its ten active values from an array. Oracle: analytic derivatives.
#include <stdarg.h>
#include "fz_test.h"

__attribute__((noinline)) static double sum_weighted(int n, const double *v) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += (i + 1) * v[i] * v[i];
  return s;
}

__attribute__((noinline)) static int count_flags(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int c = 0;
  for (int i = 0; i < n; i++) c += va_arg(ap, int) != 0;
  va_end(ap);
  return c;
}

static int quiet = 1;
__attribute__((noinline)) static void logf_(const char *fmt, ...) {
  if (quiet) return;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}

void *__enzyme_inactivefn[] = {(void *)logf_};

double f(double a, double b, double c) {
  logf_("a=%g b=%g c=%g\n", a, b, c);
  double v[10] = {a, b, c, a * b, b * c, sin(a), c, a, b, c};
  int k = count_flags(3, 1, 0, 2);  // 2
  logf_("k=%d sum so far %g\n", k, v[0] + v[1]);
  return sum_weighted(10, v) + (k - 1) * a * c;
}

int main(void) {
  double a = 0.7, b = -0.4, c = 1.3;
  fz_grad3 g = __enzyme_autodiff3((void *)f, a, b, c);
  double ab = a * b, bc = b * c, sa = sin(a);
  // s = 1a^2 + 2b^2 + 3c^2 + 4(ab)^2 + 5(bc)^2 + 6 sin(a)^2 + 7c^2 + 8a^2 + 9b^2 + 10c^2
  double da = 2 * a + 8 * ab * b + 12 * sa * cos(a) + 16 * a + c;
  double db = 4 * b + 8 * ab * a + 10 * bc * c + 18 * b;
  double dc = 6 * c + 10 * bc * b + 14 * c + 20 * c + a;
  fz_check("d/da", g.d0, da, 1e-12);
  fz_check("d/db", g.d1, db, 1e-12);
  fz_check("d/dc", g.d2, dc, 1e-12);
  return fz_finish();
}
