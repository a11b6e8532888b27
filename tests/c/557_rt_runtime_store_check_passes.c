// OPT: O0 O2
// The counterpart of 556: the same program where the data never choose the enzyme_const
// buffer. The callee's stores are checked at run time (the pointer may be constant as
// far as the compiler knows) and the check must not fire; the derivative through the
// duplicated scratch buffer is right.
// Oracles: central finite differences (x, with the scratch buffer reset for each
// evaluation) and the dot-product identity between forward and reverse mode.
#include <string.h>
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 4

__attribute__((noinline)) static double squares(double *p, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    p[i] = x[i] * x[i];
    s += p[(i + n - 1) % n] * x[i];
  }
  return s;
}

__attribute__((noinline)) double f(double *x, double *w, double *y, int mask, int n) {
  double s = 0;
  double *p = w;
  for (int r = 0; r < 2; r++) {
    s += squares(p, x, n);
    p = (mask & (1 << r)) ? y : w;
  }
  return s;
}

static double w0[N], ys[N];
static double eval(void *ctx) {
  double w[N];
  memcpy(w, w0, sizeof w);
  return f((double *)ctx, w, ys, 0, N);
}

int main(void) {
  fz_seed(557);
  double x[N], dx[N] = {0}, w[N], dw[N] = {0}, v[N], vw[N] = {0};
  fz_fill(x, N, -1, 1);
  fz_fill(w0, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  memcpy(w, w0, sizeof w);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, ys,
                    enzyme_const, 0, enzyme_const, N);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  memcpy(w, w0, sizeof w);
  double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_dup, w, vw, enzyme_const, ys,
                                enzyme_const, 0, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += dx[k] * v[k];
  fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  return fz_finish();
}
