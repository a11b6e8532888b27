// OPT: O0 O2
// ARGS: -lopenblas
// Vector reverse mode (`enzyme_width, 2`) through BLAS rules that do not update memory
// in place: `cblas_ddot` (y with stride 2) and `cblas_dnrm2`, whose reverse rules run
// once per lane since enz35 (axpy is refused: tests/errors/enz35_blas_axpy_reverse_width.c).
// Oracle: central differences of each lane's seeded output sum.
#include "fz_test.h"
#include "fz_modes.h"
#include <cblas.h>
#define N 5
void f(const double *x, const double *y, double *out) {
  double d = cblas_ddot(N, x, 1, y, 2);
  double n = cblas_dnrm2(N, x, 1);
  out[0] = d * n; out[1] = sin(d) + n * n * n;
}
static double X[N], Y[2 * N], SEED[2];
static double seeded(void *c) { (void)c; double o[2]; f(X, Y, o); return o[0] * SEED[0] + o[1] * SEED[1]; }
int main(void) {
  fz_seed(9); fz_fill(X, N, -1, 1); fz_fill(Y, 2 * N, -1, 1);
  double o[2], s0[2] = {1, 0}, s1[2] = {0.4, 1}, gx0[N] = {0}, gx1[N] = {0}, gy0[2 * N] = {0}, gy1[2 * N] = {0};
  __enzyme_autodiff_w((void *)f, enzyme_width, 2, enzyme_dup, X, gx0, gx1, enzyme_dup, Y, gy0, gy1, enzyme_dup, o, s0, s1);
  double *gx[2] = {gx0, gx1}, *gy[2] = {gy0, gy1}, ss[2][2] = {{1, 0}, {0.4, 1}};
  for (int l = 0; l < 2; l++) { SEED[0] = ss[l][0]; SEED[1] = ss[l][1];
    for (int i = 0; i < N; i++) fz_check("gx", gx[l][i], fz_fd_ptr(seeded, 0, &X[i]), 1e-6);
    for (int i = 0; i < 2 * N; i++) fz_check("gy", gy[l][i], fz_fd_ptr(seeded, 0, &Y[i]), 1e-6); }
  return fz_finish();
}
