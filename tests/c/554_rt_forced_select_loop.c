// OPT: O0 O2
// CFLAGS: -mllvm -enzyme-runtime-activity=1
// Runtime activity forced by Enzyme's option (issue 16): `-enzyme-runtime-activity=1`
// moves even the selects that are otherwise handled by a null shadow and masked
// accesses (reverse/mixed.rs) to the run-time activity scheme (the constant pointer is
// its own shadow, accesses are guarded by shadow != primal). A loop picks, per element,
// between an enzyme_const table and the duplicated input by the input's sign.
// Reverse mode, forward mode and vector forward mode (width 2).
// Oracles: analytic gradient, central finite differences, and the dot-product identity
// between each forward lane and reverse mode.
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 6

__attribute__((noinline)) double f(double *x, const double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = (x[i] > 0) ? t : x;
    s += p[i] * p[i] * x[(i + 1) % n];
  }
  return s;
}

static double ts[N];
static double eval(void *ctx) { return f((double *)ctx, ts, N); }

int main(void) {
  fz_seed(554);
  double x[N], dx[N] = {0}, want[N], v[2][N];
  fz_fill(x, N, -1, 1);
  fz_fill(ts, N, -1, 1);
  fz_fill(v[0], N, -1, 1);
  fz_fill(v[1], N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ts, enzyme_const, N);
  for (int k = 0; k < N; k++) want[k] = 0;
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    double a = x[i] > 0 ? ts[i] : x[i];
    want[j] += a * a;
    if (!(x[i] > 0)) want[i] += 2 * a * x[j];
  }
  fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  for (int l = 0; l < 2; l++) {
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v[l], enzyme_const, ts, enzyme_const, N);
    double dot = 0;
    for (int k = 0; k < N; k++) dot += dx[k] * v[l][k];
    fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  }
  double vv[2 * N];
  for (int k = 0; k < N; k++) vv[k] = v[0][k], vv[N + k] = v[1][k];
  fz_v2 r = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dupv, (int)(N * sizeof(double)),
                                x, vv, enzyme_const, ts, enzyme_const, N);
  for (int l = 0; l < 2; l++) {
    double dot = 0;
    for (int k = 0; k < N; k++) dot += dx[k] * v[l][k];
    fz_check("vector forward lane . v == reverse . v", r.d[l], dot, 1e-12);
  }
  return fz_finish();
}
