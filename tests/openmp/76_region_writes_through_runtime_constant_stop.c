// EXPECT-RUNTIME-ERROR: in `relax.omp_outlined
// EXPECT-RUNTIME-ERROR: a value that depends on differentiable inputs is written to constant (enzyme_const) memory reached through a pointer whose activity is only known at run time
// EXPECT-RUNTIME-ERROR: pass that buffer with enzyme_dup
// OMP_THREADS: 1 2 4
// OPT: O0 O2
// CFLAGS: -g
// A parallel region writes values that depend on x through `out`, chosen at run time
// between the duplicated y and an `enzyme_const` scratch buffer, and a second region's
// reduction reads them back. With `out = y` the derivative is right (checked first,
// against the serial program and central differences); with `out = scratch` the
// derivative of everything read back through the scratch would be lost, so the
// derivative stops at run time, in the region, with a message naming the fix (a
// runtime-activity checked store: the pointer's shadow is the primal; the case where
// runtime activity would otherwise lose the derivative without a word).
#include <math.h>
#include <omp.h>
#include "fz_test.h"

extern int enzyme_dup, enzyme_const;

double relax(double *x, double *y, double *scratch, int n, int to_scratch) {
  double *out = to_scratch ? scratch : y;
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = x[i] * x[(i + 1) % n] + sin(x[i]);
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += out[i] * out[i];
  return s;
}

enum { N = 6 };
static double X[N];
static double eval(void *ctx) {
  (void)ctx;
  double s = 0;
  for (int i = 0; i < N; i++) {
    double o = X[i] * X[(i + 1) % N] + sin(X[i]);
    s += o * o;
  }
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, sc[N] = {0}, fd[N];
  fz_seed(76);
  fz_fill(x, N, -1, 1);
  for (int i = 0; i < N; i++) X[i] = x[i];
  fz_fd_grad(eval, 0, X, N, fd);
  __enzyme_autodiff((void *)relax, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, sc, N, 0);
  fz_check_arr("out = y: gradient vs central differences", dx, fd, N, 1e-6);
  fflush(stdout);
  // out = scratch: stops here.
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)relax, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, sc, N, 1);
  printf("not stopped: dx[0] = %g\n", dx[0]);
  return fz_finish();
}
