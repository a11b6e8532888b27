// OPT: O0 O2
// Runtime activity (issue 16): an enzyme_const pointer stored into a struct that also
// holds the duplicated pointer (a "context" struct, as -O0 code and C++ lambdas
// capturing by reference make), read back and used in the same function. It was
// refused ("mismatched activity: ... is stored into memory that has one"): pointers read
// back from the struct's shadow had a null shadow. Now the constant pointer's shadow is
// the pointer itself, and reads through pointers loaded from shadowed memory are
// guarded by `shadow != primal`. Oracles: analytic gradient, central finite
// differences, and the dot-product identity between forward and reverse mode.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 5

struct ctx {
  const double *y;
  double *x;
  int n;
};

__attribute__((noinline)) double f(double *x, const double *y, int n) {
  struct ctx c = {y, x, n};
  struct ctx *volatile pc = &c;
  double s = 0;
  for (int i = 0; i < pc->n; i++) s += pc->x[i] * pc->y[i] + pc->x[i] * pc->x[i] * pc->y[0];
  return s;
}

static double ys[N];
static double eval(void *ctx) { return f((double *)ctx, ys, N); }

int main(void) {
  fz_seed(551);
  double x[N], dx[N] = {0}, v[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = ys[i] + 2 * x[i] * ys[0];
  fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, ys, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += dx[k] * v[k];
  fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  return fz_finish();
}
