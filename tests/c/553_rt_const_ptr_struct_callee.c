// OPT: O0 O2
// Runtime activity across calls (issue 16): an enzyme_const pointer kept in a struct
// that also holds a differentiable pointer (a "context" struct), read back by a callee
// that is not inlined. This crashed (SIGSEGV writing to address 0 + 8: the pointer read
// back had a null shadow), then was refused as mismatched activity
// (tests/errors/audit_const_pointer_in_struct.c, now this program). The constant
// pointer is its own shadow; the callee's derivative is generated under run-time
// checks, which guard every access through a pointer read from shadowed memory.
// Oracles: analytic gradient, central finite differences, dot-product identity.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 4

struct ctx {
  const double *y;
  double *x;
  int n;
};

__attribute__((noinline)) static double use(struct ctx *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += c->x[i] * c->y[i] + c->x[i] * c->x[i];
  return s;
}

__attribute__((noinline)) double f(double *x, const double *y, int n) {
  struct ctx c = {y, x, n};
  return use(&c) + y[1] * x[1];
}

static double ys[N];
static double eval(void *ctx) { return f((double *)ctx, ys, N); }

int main(void) {
  fz_seed(553);
  double x[N], dx[N] = {0}, v[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = ys[i] + 2 * x[i] + (i == 1 ? ys[1] : 0);
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
