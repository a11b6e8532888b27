// OPT: O0 O2
// A mutable global pointer to a global array of doubles, used by the differentiated
// code (state kept in globals, as older numerical codes do). Neither global is marked
// by the user; both get shadows. Oracle: analytic.
#include "fz_test.h"

static double state[4];
double *cursor = state;

__attribute__((noinline)) void put(double v, int i) { cursor[i] = v; }

double f(double a, double b) {
  put(a * b, 0);
  put(a + b, 1);
  put(a * a, 2);
  double s = 0;
  for (int i = 0; i < 3; i++) s += cursor[i] * cursor[i];
  return s;
}

int main(void) {
  fz_seed(52);
  double a = fz_uniform(0.5, 2), b = fz_uniform(-1, 1);
  fz_grad2 g = __enzyme_autodiff2((void *)f, a, b);
  // f = (ab)^2 + (a+b)^2 + a^4
  fz_check("df/da", g.d0, 2 * a * b * b + 2 * (a + b) + 4 * a * a * a, 1e-12);
  fz_check("df/db", g.d1, 2 * a * a * b + 2 * (a + b), 1e-12);
  fz_grad2 g2 = __enzyme_autodiff2((void *)f, a, b);
  fz_check("repeatable da", g2.d0, g.d0, 0.0);
  return fz_finish();
}
