// OPT: O0 O1 O2 O3
// A helper reads a (non-active, never-shadowed) global scale factor that the
// caller modifies between calls. The reverse pass of the first helper call
// must use the old value of the global.
#include "fz_test.h"

double g_scale = 1.5;
double g_tab[4] = {1.0, 2.0, 3.0, 4.0};

__attribute__((noinline)) double h(double x) { return sin(x * g_scale) * g_scale; }
__attribute__((noinline)) double h2(double x, int k) { return x * x * g_tab[k]; }

double f(double x) {
  double s = h(x);
  g_scale = 3.25;
  s += h(x);
  g_scale = -0.75;
  s += h(x * x);
  g_scale = 1.5;
  return s;
}

double f2(double x) {
  double s = 0;
  for (int k = 0; k < 4; k++) {
    s += h2(x, k);
    g_tab[k] = g_tab[k] * 10.0;  /* modified after use */
  }
  for (int k = 0; k < 4; k++) g_tab[k] /= 10.0;
  return s;
}

int main(void) {
  double x = 0.37;
  double d = __enzyme_autodiff((void *)f, x);
  double want = cos(x * 1.5) * 1.5 * 1.5 + cos(x * 3.25) * 3.25 * 3.25 +
                cos(x * x * -0.75) * 0.75 * 0.75 * 2 * x;
  fz_check("df/dx", d, want, 1e-12);
  fz_check("g_scale restored", g_scale, 1.5, 0);
  double d2 = __enzyme_autodiff((void *)f2, x);
  fz_check("df2/dx", d2, 2 * x * (1 + 2 + 3 + 4), 1e-9);
  return fz_finish();
}
