// OPT: O0 O1 O2 O3
// ARGS: -lopenblas
// probe43: CBLAS inside a loss (dgemv, dgemm row-major, ddot with strides, dnrm2, daxpy
// into a strided view), a transposed dgemv; forward mode with `enzyme_width, 3`
// (`enzyme_dup` with three shadows and `enzyme_dupv` with a lane stride) on an n-body
// energy, checked lane by lane against <gradient, t_k>; a transposed dgemv + ddot +
// dnrm2 in reverse mode; vector reverse mode (`enzyme_width, 2`) on the energy. With BLAS
// calls that update memory in place (dgemv's y, even with beta = 0) enzyme_width is
// refused with a clear message (the rule would run once per lane). Passed as written.
#include "fz_test.h"
#include <cblas.h>
#include "fz_grad_check.h"
double blas(const double *x, int n) { /* x: A 3x4 row major (12), v 4, B 4x2 (8), total 24 */
  (void)n; double y[3], C[6];
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 3, 4, 1.0, x, 4, x + 12, 1, 0.0, y, 1);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 2, 4, 0.5, x, 4, x + 16, 2, 0.0, C, 2);
  double s = cblas_ddot(3, y, 1, y, 1) + cblas_ddot(6, C, 1, C, 1) + cblas_dnrm2(4, x + 12, 1);
  cblas_daxpy(3, 2.0, y, 1, C, 2);
  return s + cblas_ddot(3, C, 2, y, 1);
}
extern int enzyme_width, enzyme_dupv;
typedef struct { double d[3]; } s3;
extern s3 __enzyme_fwddiff_s3(void *, ...);
extern void __enzyme_autodiff_w(void *, ...);
static const double mass[4] = {1.0, 0.5, 2.0, 0.7};
double energy(const double *x, int n) {
  int nb = n / 3; double e = 0;
  for (int i = 0; i < nb; i++)
    for (int j = i + 1; j < nb; j++) {
      double dx = x[3*i] - x[3*j], dy = x[3*i+1] - x[3*j+1], dz = x[3*i+2] - x[3*j+2];
      e -= mass[i] * mass[j] / sqrt(dx*dx + dy*dy + dz*dz + 0.01);
    }
  return e;
}
double blasf(const double *x, int n) { /* A 3x3 in x[0..9), v in x[9..12) */
  (void)n; double y[3];
  cblas_dgemv(CblasRowMajor, CblasTrans, 3, 3, 1.0, x, 3, x + 9, 1, 0.0, y, 1);
  return cblas_ddot(3, y, 1, x + 9, 1) + cblas_dnrm2(3, y, 1);
}
static void check(const char *name, const double *g, int n, s3 r, double (*t)[12]) {
  for (int k = 0; k < 3; k++) { double d = 0; for (int i = 0; i < n; i++) d += g[i] * t[k][i]; fz_check(name, r.d[k], d, 1e-10); }
}
int main(void) {
  double x[24]; fz_seed(5); fz_fill(x, 24, -1, 1);
  FZ_CHECK_GRAD("cblas", blas, x, 24, 1e-6);
  {
  double x[12]; fz_seed(21); fz_fill(x, 12, -1, 1);
  double t[3][12];
  for (int k = 0; k < 3; k++) for (int i = 0; i < 12; i++) { t[k][i] = sin(1.0 + k * 12 + i); }
  double g[12] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, 12);
  for (int i = 0; i < 12; i++) fz_check("energy rev", g[i], fz_fd_vec(energy, x, 12, i), 1e-6);
  s3 r = __enzyme_fwddiff_s3((void *)energy, enzyme_width, 3, enzyme_dup, x, t[0], t[1], t[2], enzyme_const, 12);
  check("energy width3", g, 12, r, t);
  s3 rv = __enzyme_fwddiff_s3((void *)energy, enzyme_width, 3, enzyme_dupv, sizeof(t[0]), x, t, enzyme_const, 12);
  check("energy dupv", g, 12, rv, t);
  double gb[12] = {0};
  __enzyme_autodiff((void *)blasf, enzyme_dup, x, gb, enzyme_const, 12);
  for (int i = 0; i < 12; i++) fz_check("blas rev", gb[i], fz_fd_vec(blasf, x, 12, i), 1e-6);
  /* vector reverse mode: both lanes seeded with 1 (BLAS calls that update memory in
     place, dgemv here, are refused with enzyme_width: their rule would run per lane) */
  double w0[12] = {0}, w1[12] = {0};
  __enzyme_autodiff_w((void *)energy, enzyme_width, 2, enzyme_dup, x, w0, w1, enzyme_const, 12);
  for (int i = 0; i < 12; i++) {
    fz_check("energy reverse width 2 lane 0", w0[i], g[i], 1e-12);
    fz_check("energy reverse width 2 lane 1", w1[i], g[i], 1e-12);
  }
  }
  return fz_finish();
}
