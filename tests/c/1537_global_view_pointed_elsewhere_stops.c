// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: has no shadow (it was set outside the differentiated code)
// func46: a global view `{double *p; int n;}` initialised with the address of a mutable
// array starts with its shadow pointing at that array's shadow (tests/c/1536). Here
// `main` points the view at another array between two derivative calls, code the pass
// does not see: the shadow still pointing at the first array's shadow would receive the
// adjoints of the second array's elements (a wrong derivative), so it is cleared where
// the derivative starts and the read through it stops with a message (naming `view`, or `view.0` where -O2
// split the record). The first call,
// before the change, is checked against central differences.
#include "fz_test.h"

static double storage[3], other[3];
static struct { double *p; int n; } view = {storage, 3};

double f(double x) {
  for (int i = 0; i < view.n; i++) view.p[i] = x * (i + 1);
  double s = 0;
  for (int i = 0; i < view.n; i++) s += sin(view.p[i]) * other[i];
  return s;
}

int main(void) {
  double x = 0.7;
  for (int i = 0; i < 3; i++) other[i] = 0.5 + i;
  fz_check("d/dx finite differences", __enzyme_autodiff((void *)f, enzyme_out, x),
           fz_fd1(f, x), 1e-6);
  view.p = other;
  __enzyme_autodiff((void *)f, enzyme_out, x);
  return fz_finish();
}
