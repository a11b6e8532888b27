// OPT: O0 O2
// enz37: __builtin_powi with integer exponents read from a table (negative, zero, large)
// into eight accumulators that memset clears at the start and again half-way (the
// adjoint of the accumulators cleared the second time must not reach x), and an
// enzyme_dup output array that the function memsets and then accumulates into (reverse:
// the output's adjoint is consumed and the shadow is zero afterwards). Oracles:
// analytic, central differences, forward = reverse.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...) __asm__("__enzyme_autodiff");
extern void __enzyme_fwddiff_v(void *, ...) __asm__("__enzyme_fwddiff");

static const int P[12] = {3, -2, 0, 5, 1, -1, 7, 2, -3, 4, 6, 1};

double f(const double *x, int n) {
  double acc[8];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < n; i++) acc[i % 8] += __builtin_powi(x[i], P[i % 12]);
  memset(acc + 4, 0, 4 * sizeof(double));
  for (int i = 0; i < n; i++) acc[4 + i % 4] += 0.5 * __builtin_powi(x[i], P[(i + 5) % 12]);
  double s = 0;
  for (int k = 0; k < 8; k++) s += (k + 1) * acc[k];
  return s;
}

void g(const double *x, double *out, int n, int m) {
  memset(out, 0, m * sizeof(double));
  for (int i = 0; i < n; i++) out[i % m] += __builtin_powi(x[i], P[i % 12]) * x[(i + 1) % n];
}

static double df_dxi(const double *x, int n, int i) {
  double d = 0;
  int k1 = i % 8, p1 = P[i % 12];
  if (k1 < 4 && p1 != 0) d += (k1 + 1) * p1 * __builtin_powi(x[i], p1 - 1);
  int k2 = 4 + i % 4, p2 = P[(i + 5) % 12];
  if (p2 != 0) d += (k2 + 1) * 0.5 * p2 * __builtin_powi(x[i], p2 - 1);
  return d;
}

struct ctx { double *x; int n; };
static double eval(void *p) {
  struct ctx *c = p;
  return f(c->x, c->n);
}

int main(void) {
  enum { N = 13, M = 3 };
  double x[N], dx[N], want[N], fd[N];
  fz_seed(1420);
  fz_fill(x, N, 0.6, 1.4);
  for (int i = 0; i < N; i++) want[i] = df_dxi(x, N, i);
  struct ctx c = {x, N};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("analytic vs central differences", want, fd, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  fz_check_arr("reverse grad", dx, want, N, 1e-10);
  double v[N], jv_want = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) jv_want += want[i] * v[i];
  fz_check("forward <grad, v>", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N),
           jv_want, 1e-10);

  // g: out[j] = sum_{i % m = j} x_i^p_i x_{i+1}; w^T J by reverse, J v by forward.
  double out[M], dout[M], w[M] = {0.7, -1.3, 2.1}, gx[N], jv[M], jv2[M];
  for (int j = 0; j < M; j++) out[j] = 99, dout[j] = w[j];
  fz_zero(gx, N);
  __enzyme_autodiff_v((void *)g, enzyme_dup, x, gx, enzyme_dup, out, dout, enzyme_const, N,
                      enzyme_const, M);
  double wantg[N];
  fz_zero(wantg, N);
  for (int i = 0; i < N; i++) {
    int p = P[i % 12], nx = (i + 1) % N;
    double wj = w[i % M];
    if (p != 0) wantg[i] += wj * p * __builtin_powi(x[i], p - 1) * x[nx];
    wantg[nx] += wj * __builtin_powi(x[i], p);
  }
  fz_check_arr("reverse w^T J of the memset output", gx, wantg, N, 1e-10);
  for (int j = 0; j < M; j++) fz_check("output adjoint consumed", dout[j], 0, 0);
  for (int j = 0; j < M; j++) jv2[j] = 0;
  for (int i = 0; i < N; i++) {
    int p = P[i % 12], nx = (i + 1) % N;
    double d = __builtin_powi(x[i], p) * v[nx];
    if (p != 0) d += p * __builtin_powi(x[i], p - 1) * x[nx] * v[i];
    jv2[i % M] += d;
  }
  for (int j = 0; j < M; j++) jv[j] = 123;
  __enzyme_fwddiff_v((void *)g, enzyme_dup, x, v, enzyme_dup, out, jv, enzyme_const, N,
                     enzyme_const, M);
  fz_check_arr("forward J v of the memset output", jv, jv2, M, 1e-10);
  double dot1 = 0, dot2 = 0;
  for (int i = 0; i < N; i++) dot1 += gx[i] * v[i];
  for (int j = 0; j < M; j++) dot2 += w[j] * jv[j];
  fz_check("dot product identity <w, Jv> = <J^T w, v>", dot1, dot2, 1e-10);
  return fz_finish();
}
