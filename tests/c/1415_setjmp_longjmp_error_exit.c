// OPT: O0 O2
// An error exit by `longjmp` out of a helper deep in the differentiated loop, to a
// `setjmp` at the function's entry that returns a constant (as C solvers bail out of a
// diverging iteration): derivative calls that take the jump (the forward sweep leaves
// the loop midway, with values already on the tape) give a zero gradient, and the
// derivative calls after them (taking the normal path) must not be disturbed by what the
// jumps left behind. Oracles: the zero derivative of the constant, central differences
// on the normal path, alternating the two paths.
#include "fz_test.h"
#include <setjmp.h>

static jmp_buf env;
static int jumps;

__attribute__((noinline)) static double checked(double x) {
  if (x > 5) {
    jumps++;
    longjmp(env, 1);
  }
  return x * x;
}

double f(const double *x, int n) {
  if (setjmp(env)) return -1;
  double s = 0;
  for (int i = 0; i < n; i++) s += checked(x[i] * s + x[i]);
  return s;
}

static double Y[4];
static double eval(void *c) {
  (void)c;
  return f(Y, 4);
}

int main(void) {
  double x[4] = {1, 1.5, 1.2, 0.1}, y[4] = {0.5, 0.4, 0.3, 0.2};
  fz_check("the primal jumps", f(x, 4), -1, 0);
  memcpy(Y, y, sizeof Y);
  double fd[4];
  for (int i = 0; i < 4; i++) fd[i] = fz_fd_ptr(eval, NULL, &Y[i]);
  for (int rep = 0; rep < 3; rep++) {
    double g[4] = {0}, h[4] = {0}, zero[4] = {0};
    int before = jumps;
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, 4);
    fz_check("the derivative call jumped", jumps - before, 1, 0);
    fz_check_arr("jumped: the gradient of the constant", g, zero, 4, 0);
    __enzyme_autodiff((void *)f, enzyme_dup, y, h, enzyme_const, 4);
    fz_check_arr("normal path after a jump: central differences", h, fd, 4, 1e-6);
  }
  return fz_finish();
}
