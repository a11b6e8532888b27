// OPT: O0 O1 O2 O3
// probe42: enzyme_out on three scalars returning a struct of three doubles, the same
// through `enzyme_width 3` forward mode with `enzyme_dupv` tangents, a qsort with a
// comparator over a malloc copy of the input, `enzyme_dupnoneed` on the output array
// (a VJP). Oracles: analytic, central differences.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct { double a, b, c; } grad3;
extern grad3 __enzyme_autodiff_g3(void *, ...);

static double cube(double t) { return t * t * t; }
double f3(double a, double b, double c) {
  double t[3] = {cube(a), sin(b) * a, exp(c) * b};
  return t[0] + t[1] + t[2];
}

static int cmp(const void *p, const void *q) {
  double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}
void sorted_weights(const double *x, double *out, int n) {
  double *t = malloc(n * sizeof *t);
  memcpy(t, x, n * sizeof *t);
  qsort(t, n, sizeof *t, cmp);
  for (int i = 0; i < n; i++) out[i] = t[i] * (i + 1) + t[i] * t[i];
  free(t);
}
double sorted_loss(const double *x, int n) {
  double out[8];
  sorted_weights(x, out, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * out[i];
  return s;
}
static int N;
static double X[6];
static double eval_sorted(void *ctx) { (void)ctx; return sorted_loss(X, N); }
static double A_, B_, C_;
static double eval_f3(void *ctx) { (void)ctx; return f3(A_, B_, C_); }

int main(void) {
  A_ = 0.7; B_ = -0.4; C_ = 0.3;
  grad3 g = __enzyme_autodiff_g3((void *)f3, enzyme_out, A_, enzyme_out, B_, enzyme_out, C_);
  fz_check("da", g.a, 3 * A_ * A_ + sin(B_), 1e-10);
  fz_check("db", g.b, cos(B_) * A_ + exp(C_), 1e-10);
  fz_check("dc", g.c, exp(C_) * B_, 1e-10);
  fz_v3 t = __enzyme_fwddiff_v3((void *)f3, enzyme_width, 3, enzyme_dupv, sizeof(double), A_, (double[]){1, 0, 0},
                               enzyme_dupv, sizeof(double), B_, (double[]){0, 1, 0}, enzyme_dupv, sizeof(double), C_, (double[]){0, 0, 1});
  fz_check("w3 a", t.d[0], g.a, 1e-10);
  fz_check("w3 b", t.d[1], g.b, 1e-10);
  fz_check("w3 c", t.d[2], g.c, 1e-10);
  N = 6;
  double x[6] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5}, dx[6] = {0};
  memcpy(X, x, sizeof x);
  __enzyme_autodiff((void *)sorted_loss, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("qsort", dx[i], fz_fd_ptr(eval_sorted, 0, &X[i]), 1e-6);
  double out[6], dout[6] = {1, 0.5, -1, 2, 0, 1}, gx[6] = {0};
  __enzyme_autodiff((void *)sorted_weights, enzyme_dup, x, gx, enzyme_dupnoneed, out, dout, enzyme_const, N);
  /* VJP oracle: out_i depends on t_i = sorted x; d/dt_i = (i+1) + 2 t_i */
  double t6[6];
  memcpy(t6, x, sizeof t6);
  qsort(t6, 6, sizeof(double), cmp);
  double want[6] = {0};
  double dout0[6] = {1, 0.5, -1, 2, 0, 1};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      if (x[j] == t6[i]) want[j] += dout0[i] * ((i + 1) + 2 * t6[i]);
  for (int i = 0; i < 6; i++) fz_check("dupnoneed vjp", gx[i], want[i], 1e-10);
  return fz_finish();
}
