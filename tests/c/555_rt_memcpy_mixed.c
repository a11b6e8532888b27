// OPT: O0 O2
// Runtime activity through memcpy (issue 16): a buffer copied with memcpy from a pointer
// that is an enzyme_const table or the duplicated input depending on the run (a loop
// phi). The shadow copy is guarded: when the source's shadow is the primal (the
// constant table), the destination's tangent/adjoint is cleared instead of copied from
// primal memory; Eigen's unoptimized Tensor code copies this way.
// Oracles: analytic gradient, central finite differences, dot-product identity.
#include <string.h>
#include "fz_test.h"
#include "fz_modes.h"

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 5

__attribute__((noinline)) double f(double *x, const double *y, int mask, int n, int rounds) {
  double tmp[8];
  double s = 0;
  const double *p = (mask & 1) ? y : x;
  for (int r = 0; r < rounds; r++) {
    memcpy(tmp, p, (size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) s += tmp[i] * x[i] * (r + 1);
    p = (mask & (2 << r)) ? y : x;
  }
  return s;
}

static double ys[N];
static int gmask = 0x6;
static double eval(void *ctx) { return f((double *)ctx, ys, gmask, N, 3); }

int main(void) {
  fz_seed(555);
  double x[N], dx[N] = {0}, v[N], want[N];
  fz_fill(x, N, -1, 1);
  fz_fill(ys, N, -1, 1);
  fz_fill(v, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, ys, enzyme_const, gmask,
                    enzyme_const, N, enzyme_const, 3);
  for (int i = 0; i < N; i++) {
    want[i] = 0;
    for (int r = 0; r < 3; r++) want[i] += (r + 1) * ((gmask >> r) & 1 ? ys[i] : 2 * x[i]);
  }
  fz_check_arr("gradient (analytic)", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad(eval, x, x, N, fd);
  fz_check_arr("gradient (finite differences)", dx, fd, N, 1e-6);
  double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, ys, enzyme_const, gmask,
                                enzyme_const, N, enzyme_const, 3);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += dx[k] * v[k];
  fz_check("forward . v == reverse . v", tan, dot, 1e-12);
  return fz_finish();
}
