// OPT: O0 O2
// EXPECT-RUNTIME-ERROR: has no shadow
// EXPECT-RUNTIME-ERROR: g_ptr
// A global pointer assigned at run time (NULL at load) to the user's array,
// then written and read inside the differentiated function. Its shadow is
// never given by the user.
#include "fz_test.h"

double *g_ptr;
double f_global(double *x) {
  double r = x[0] * x[0] * x[1];
  g_ptr[0] = 5.0;
  return r;
}

int main(void) {
  double x[2] = {0.7, -0.4}, dx[2] = {0, 0};
  g_ptr = x;
  __enzyme_autodiff((void *)f_global, enzyme_dup, x, dx);
  fz_check("global dx0", dx[0], 2 * 0.7 * -0.4, 1e-12);
  fz_check("global dx1", dx[1], 0.49, 1e-12);
  return fz_finish();
}
