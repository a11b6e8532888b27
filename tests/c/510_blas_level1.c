// OPT: O0 O2
// LLI: O0 O2
// ARGS: -lopenblas
// BLAS level 1 through CBLAS and the Fortran symbols, double and single precision:
// ddot, daxpy, dscal, dnrm2 (strides 1, 2 and negative; alpha active and constant;
// vectors constant and duplicated) differentiated by rules that call BLAS again.
// Oracles: the same computation written as loops (differentiated by Ferrozyme's core),
// central finite differences, and the dot-product identity between forward and reverse.
#include "fz_test.h"
#include <cblas.h>

extern double __enzyme_fwddiff(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);
extern float __enzyme_autodiff_f(void *, ...);
typedef struct { double da; } g1;

extern double ddot_(const int *, const double *, const int *, const double *, const int *);
extern void daxpy_(const int *, const double *, const double *, const int *, double *,
                   const int *);
extern void dscal_(const int *, const double *, double *, const int *);
extern double dnrm2_(const int *, const double *, const int *);
extern float sdot_(const int *, const float *, const int *, const float *, const int *);

#define N 7

/* f(x, y, a) with every level-1 routine: w = x (copy), w = a*w (scal), y2 = y + a w
 * (axpy, stride 2 on y), r = x . y2 (dot, negative stride on x) + |w| (nrm2). */
double f_blas(const double *x, const double *y, double a) {
  double w[N], y2[2 * N];
  for (int i = 0; i < N; i++) w[i] = x[i];
  for (int i = 0; i < 2 * N; i++) y2[i] = y[i];
  cblas_dscal(N, a, w, 1);
  cblas_daxpy(N, a, w, 1, y2, 2);
  double r = cblas_ddot(N, x, -1, y2, 2);
  return r + cblas_dnrm2(N, w, 1);
}

double f_loops(const double *x, const double *y, double a) {
  double w[N], y2[2 * N];
  for (int i = 0; i < N; i++) w[i] = x[i];
  for (int i = 0; i < 2 * N; i++) y2[i] = y[i];
  for (int i = 0; i < N; i++) w[i] *= a;
  for (int i = 0; i < N; i++) y2[2 * i] += a * w[i];
  double r = 0;
  for (int i = 0; i < N; i++) r += x[N - 1 - i] * y2[2 * i];
  double s = 0;
  for (int i = 0; i < N; i++) s += w[i] * w[i];
  return r + sqrt(s);
}

/* The same through the Fortran symbols (every argument by reference). */
double f_fortran(const double *x, const double *y, double a) {
  double w[N], y2[2 * N];
  int n = N, one = 1, two = 2, minus = -1;
  for (int i = 0; i < N; i++) w[i] = x[i];
  for (int i = 0; i < 2 * N; i++) y2[i] = y[i];
  dscal_(&n, &a, w, &one);
  daxpy_(&n, &a, w, &one, y2, &two);
  double r = ddot_(&n, x, &minus, y2, &two);
  return r + dnrm2_(&n, w, &one);
}

/* Single precision: a dot product with a constant vector. */
float g_float(const float *x, const float *c) { return cblas_sdot(N, x, 1, c, 1) * 2.0f; }
float g_float_fortran(const float *x, const float *c) {
  int n = N, one = 1;
  return sdot_(&n, x, &one, c, &one) * 2.0f;
}

static double X[N], Y[2 * N], A;
static double e_x(void *c) { return f_loops(X, Y, A); (void)c; }

int main(void) {
  fz_seed(510);
  fz_fill(X, N, -1, 1);
  fz_fill(Y, 2 * N, -1, 1);
  A = 0.7;
  fz_check("primal: blas == loops", f_blas(X, Y, A), f_loops(X, Y, A), 1e-13);
  fz_check("primal: fortran == loops", f_fortran(X, Y, A), f_loops(X, Y, A), 1e-13);

  double dxb[N] = {0}, dyb[2 * N] = {0}, dxl[N] = {0}, dyl[2 * N] = {0};
  double dxf[N] = {0}, dyf[2 * N] = {0};
  g1 gab = {__enzyme_autodiff((void *)f_blas, enzyme_dup, X, dxb, enzyme_dup, Y, dyb,
                              enzyme_out, A)};
  g1 gal = {__enzyme_autodiff((void *)f_loops, enzyme_dup, X, dxl, enzyme_dup, Y, dyl,
                              enzyme_out, A)};
  g1 gaf = {__enzyme_autodiff((void *)f_fortran, enzyme_dup, X, dxf, enzyme_dup, Y, dyf,
                              enzyme_out, A)};
  fz_check_arr("reverse d/dx: blas vs loops", dxb, dxl, N, 1e-12);
  fz_check_arr("reverse d/dy: blas vs loops", dyb, dyl, 2 * N, 1e-12);
  fz_check("reverse d/da: blas vs loops", gab.da, gal.da, 1e-12);
  fz_check_arr("reverse d/dx: fortran vs loops", dxf, dxl, N, 1e-12);
  fz_check_arr("reverse d/dy: fortran vs loops", dyf, dyl, 2 * N, 1e-12);
  fz_check("reverse d/da: fortran vs loops", gaf.da, gal.da, 1e-12);
  double fd[N];
  fz_fd_grad(e_x, NULL, X, N, fd);
  fz_check_arr("reverse d/dx: blas vs finite differences", dxb, fd, N, 1e-6);

  /* x constant, y duplicated, a constant. */
  double dyc[2 * N] = {0}, dylc[2 * N] = {0};
  __enzyme_autodiff((void *)f_blas, enzyme_const, X, enzyme_dup, Y, dyc, enzyme_const, A);
  __enzyme_autodiff((void *)f_loops, enzyme_const, X, enzyme_dup, Y, dylc, enzyme_const, A);
  fz_check_arr("reverse, x const: d/dy", dyc, dylc, 2 * N, 1e-12);

  /* Forward mode and the dot-product identity <J v, w> = <v, J^T w> (w = 1). */
  double vx[N], vy[2 * N], va = 0.3;
  fz_fill(vx, N, -1, 1);
  fz_fill(vy, 2 * N, -1, 1);
  double tb = __enzyme_fwddiff((void *)f_blas, enzyme_dup, X, vx, enzyme_dup, Y, vy, A, va);
  double tl = __enzyme_fwddiff((void *)f_loops, enzyme_dup, X, vx, enzyme_dup, Y, vy, A, va);
  double tf = __enzyme_fwddiff((void *)f_fortran, enzyme_dup, X, vx, enzyme_dup, Y, vy, A, va);
  fz_check("forward: blas vs loops", tb, tl, 1e-12);
  fz_check("forward: fortran vs loops", tf, tl, 1e-12);
  double dot = va * gal.da;
  for (int i = 0; i < N; i++) dot += vx[i] * dxl[i];
  for (int i = 0; i < 2 * N; i++) dot += vy[i] * dyl[i];
  fz_check("dot-product identity", tb, dot, 1e-12);

  /* Single precision. */
  float xf[N], cf[N], dxs[N] = {0}, dxs2[N] = {0};
  for (int i = 0; i < N; i++) xf[i] = (float)X[i], cf[i] = (float)Y[i];
  __enzyme_autodiff((void *)g_float, enzyme_dup, xf, dxs, enzyme_const, cf);
  __enzyme_autodiff((void *)g_float_fortran, enzyme_dup, xf, dxs2, enzyme_const, cf);
  for (int i = 0; i < N; i++) {
    fz_check("float sdot: d/dx", dxs[i], 2.0f * cf[i], 1e-6);
    fz_check("float sdot_: d/dx", dxs2[i], 2.0f * cf[i], 1e-6);
  }
  return fz_finish();
}
