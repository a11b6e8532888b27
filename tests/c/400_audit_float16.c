// OPT: O0 O2 O3
// _Float16 (LLVM `half`) at the hook boundary and inside the differentiated code
// (issue 17's audit: it used to come out as a silent zero). Scalars through a typed
// hook, half arrays with half shadows, half outputs, a struct mixing half and double,
// half arithmetic (clang computes in float and rounds back), memcpy of a half buffer,
// forward and reverse mode.
// Oracles: analytic formulas evaluated in double on the same half inputs; tolerances
// are half precision (2^-10 relative) times the number of roundings involved.
#include "fz_test.h"

extern _Float16 __enzyme_autodiff_h(void *, _Float16);
extern double __enzyme_fwddiff(void *, ...);

typedef _Float16 h16;

_Float16 sq(_Float16 x) { return x * x; }

double sumsq(const h16 *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)x[i] * (double)x[i];
  return s;
}

/* out[i] = x[i] * c (rounded to half), returns sum of out (in double). */
double scale_into(const h16 *x, h16 *out, int n, double c) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    out[i] = (h16)((double)x[i] * c);
    s += (double)out[i];
  }
  return s;
}

struct mix { h16 a; double b; h16 c; };
double mixed(const struct mix *m) { return (double)m->a * m->b + sin((double)m->c); }

/* A half buffer copied with memcpy (the memory adjoint runtime's f16 variant). */
double hcopy(const h16 *x, int n) {
  h16 buf[16];
  memcpy(buf, x, n * sizeof(h16));
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)buf[i] * (double)buf[i] * (i + 1);
  return s;
}

/* Half arithmetic throughout: clang promotes to float and rounds each result. */
h16 poly(const h16 *x) { return x[0] * x[1] + x[1] * x[1] - x[0]; }

#define N 6
int main(void) {
  fz_seed(400);
  volatile double xv = 1.5;
  h16 x0 = (h16)xv;
  fz_check("d sq", (double)__enzyme_autodiff_h((void *)sq, x0), 2.0 * (double)x0, 2e-3);

  h16 x[N], dx[N], out[N], dout[N];
  for (int i = 0; i < N; i++) { x[i] = (h16)fz_uniform(-1.5, 1.5); dx[i] = 0; }
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("d sumsq", (double)dx[i], 2.0 * (double)x[i], 2e-3);

  /* Output buffer with seeds: d/dx_i of (sum out + sum dout0_i*out_i) = c*(1+seed_i). */
  double c = 0.75, seeds[N];
  for (int i = 0; i < N; i++) { dx[i] = 0; seeds[i] = fz_uniform(-1, 1); dout[i] = (h16)seeds[i]; out[i] = 0; }
  __enzyme_autodiff((void *)scale_into, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N, enzyme_const, c);
  for (int i = 0; i < N; i++) fz_check("d scale_into", (double)dx[i], c * (1.0 + (double)(h16)seeds[i]), 4e-3);

  struct mix m = {(h16)0.5, 1.25, (h16)0.3}, dm = {0, 0, 0};
  __enzyme_autodiff((void *)mixed, enzyme_dup, &m, &dm);
  fz_check("d mixed.a", (double)dm.a, m.b, 2e-3);
  fz_check("d mixed.b", dm.b, (double)m.a, 1e-12);
  fz_check("d mixed.c", (double)dm.c, cos((double)m.c), 2e-3);

  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)hcopy, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) fz_check("d hcopy", (double)dx[i], 2.0 * (double)x[i] * (i + 1), 4e-3);

  h16 p[2] = {(h16)0.75, (h16)-0.5}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)poly, enzyme_dup, p, dp);
  fz_check("d poly/dx0", (double)dp[0], (double)p[1] - 1.0, 4e-3);
  fz_check("d poly/dx1", (double)dp[1], (double)p[0] + 2.0 * (double)p[1], 4e-3);

  /* Forward mode: tangent of sumsq along t equals sum 2 x_i t_i. */
  h16 t[N];
  double want = 0;
  for (int i = 0; i < N; i++) { t[i] = (h16)fz_uniform(-1, 1); want += 2.0 * (double)x[i] * (double)t[i]; }
  fz_check("fwd sumsq", __enzyme_fwddiff((void *)sumsq, enzyme_dup, x, t, enzyme_const, N), want, 4e-3);
  return fz_finish();
}
