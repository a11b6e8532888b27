// OPT: O0 O2 O3
// CFLAGS: -ffast-math
// probe40: numerics users write, with Enzyme: a softmax/logsumexp with max subtraction, fmax/fmin
// kinks, a hypot norm, an integer power loop, erf, and a Newton solve inside; checked at
// -O3 -ffast-math against central differences and forward = reverse.
#include "fz_test.h"
extern double __enzyme_fwddiff(void *, ...);
#define N 6
double loss(const double *x, const double *w, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  double lse = m + log(s);
  double nrm = 0;
  for (int i = 0; i < n; i++) nrm = hypot(nrm, x[i] * w[i]);
  double p = 1;
  for (int k = 0; k < 3; k++) p *= (1 + x[k % n] * 0.1);
  /* Newton solve of t^3 + t = lse */
  double t = 1;
  for (int it = 0; it < 30; it++) {
    double fval = t * t * t + t - lse;
    if (fabs(fval) < 1e-14) break;
    t -= fval / (3 * t * t + 1);
  }
  return lse + nrm * erf(x[1]) + p + t + fmin(x[2], 0.3);
}
static double xs[N], ws[N];
static double eval(void *c) { (void)c; return loss(xs, ws, N); }
int main(void) {
  double x[N] = {0.3, -0.8, 0.5, 1.2, -0.1, 0.7}, w[N] = {1, 2, 0.5, -1, 3, 0.25};
  memcpy(xs, x, sizeof x); memcpy(ws, w, sizeof w);
  double g[N] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, w, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double fd = fz_fd_ptr(eval, 0, &xs[i]);
    fz_check("grad vs FD", g[i], fd, 1e-6);
    double e[N] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)loss, enzyme_dup, x, e, enzyme_const, w, enzyme_const, N);
    fz_check("fwd = rev", t, g[i], 1e-10);
  }
  return fz_finish();
}
