// OPT: O0 O2
// Runtime activity across calls (issue 16): a pointer that is an enzyme_const buffer or
// the duplicated one depending on the run is passed to a function that is not inlined,
// together with duplicated pointers; the same function is also called with duplicated
// pointers only, and the pointer is carried by a loop phi. The callee's derivative for
// the first call site is generated under run-time checks (its parameter's shadow may be
// the primal pointer itself); the second call site keeps the ordinary derivative.
// Oracles: analytic gradient, central finite differences, and the dot-product identity
// between forward and reverse mode.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 4

__attribute__((noinline)) static double wdot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i] * (1.0 + 0.25 * i);
  return s;
}

__attribute__((noinline)) double f(double *x, const double *y, int mask, int n) {
  double s = 0;
  const double *p = (mask & 1) ? y : x;
  for (int r = 0; r < 3; r++) {
    s += wdot(p, x, n) * (r + 1);
    p = (mask & (2 << r)) ? y : x;
  }
  return s + 0.5 * wdot(x, x, n);
}

static double ys[N];
static int gmask = 0x5;
static double eval(void *ctx) { return f((double *)ctx, ys, gmask, N); }

int main(void) {
  fz_seed(552);
  double x[N], dx[N] = {0}, v[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, gmask,
                    enzyme_const, N);
  // wdot(p, x) * c: with p = y, c*w_i*y_i; with p = x, 2*c*w_i*x_i. Plus wdot(x,x)/2.
  int usey[3] = {gmask & 1, gmask & 2, gmask & 4};
  for (int i = 0; i < N; i++) {
    double w = 1.0 + 0.25 * i;
    want[i] = w * x[i];
    for (int r = 0; r < 3; r++) want[i] += (r + 1) * w * (usey[r] ? ys[i] : 2 * x[i]);
  }
  fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, ys, enzyme_const, gmask,
                                enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += dx[k] * v[k];
  fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  return fz_finish();
}
