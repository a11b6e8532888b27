// OPT: O0 O2
// Inactive side effects in the differentiated function: printf, an
// integer-only helper (gcd), and a global int counter incremented inside.
#include "fz_test.h"

int g_calls = 0;

__attribute__((noinline)) int gcd(int a, int b) {
  while (b) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

double f(double x, int n) {
  g_calls++;
  int k = gcd(n, 12);
  printf("  [inside f] n=%d gcd=%d x=%.3f\n", n, k, x);
  double r = x * x * (double)k + sin(x);
  printf("  [inside f] r=%.6f\n", r);
  return r;
}

int main(void) {
  fz_seed(40);
  const int ns[] = {8, 9, 7, 30};
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1, 1);
    int before = g_calls;
    double d = __enzyme_autodiff((void *)f, x, enzyme_const, ns[t]);
    fz_check("df/dx", d, 2.0 * x * gcd(ns[t], 12) + cos(x), 1e-10);
    fz_check("counter incremented once", (double)(g_calls - before), 1.0, 0.0);
  }
  return fz_finish();
}
