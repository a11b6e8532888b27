// OPT: O0 O1 O2 O3
// A conjugate-gradient solver for an SPD system given as a matrix-free operator (a
// static function applying a tridiagonal stencil plus a diagonal enzyme_dup array), a
// while loop on the squared residual against a relative tolerance (data-dependent trip
// count), work vectors malloc'd and freed inside, memcpy/memset of active vectors; the
// objective is c^T x. Oracle: analytic, d/db = A^-1 c and d/dd_i = -(A^-1 c)_i x_i
// (A^-1 c solved in main by the Thomas algorithm), and forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 12 };

static void apply(const double *d, const double *v, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double s = d[i] * v[i];
    if (i > 0) s -= v[i - 1];
    if (i + 1 < n) s -= v[i + 1];
    out[i] = s;
  }
}

double cg_objective(const double *d, const double *b, const double *c, int n) {
  double *x = malloc(n * sizeof(double)), *r = malloc(n * sizeof(double));
  double *p = malloc(n * sizeof(double)), *ap = malloc(n * sizeof(double));
  memset(x, 0, n * sizeof(double));
  memcpy(r, b, n * sizeof(double));
  memcpy(p, r, n * sizeof(double));
  double rr = 0, bb;
  for (int i = 0; i < n; i++) rr += r[i] * r[i];
  bb = rr;
  int it = 0;
  while (rr > 1e-30 * bb && it < 10 * n) {
    apply(d, p, ap, n);
    double pap = 0;
    for (int i = 0; i < n; i++) pap += p[i] * ap[i];
    double alpha = rr / pap;
    double rr_new = 0;
    for (int i = 0; i < n; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      rr_new += r[i] * r[i];
    }
    double beta = rr_new / rr;
    for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    rr = rr_new;
    it++;
  }
  double f = 0;
  for (int i = 0; i < n; i++) f += c[i] * x[i];
  free(x), free(r), free(p), free(ap);
  return f;
}

/* solve the tridiagonal system (diag d, off-diagonals -1) by the Thomas algorithm */
static void thomas(const double *d, const double *rhs, double *out, int n) {
  double cp[N], dp[N];
  cp[0] = -1 / d[0];
  dp[0] = rhs[0] / d[0];
  for (int i = 1; i < n; i++) {
    double m = d[i] + cp[i - 1];
    cp[i] = -1 / m;
    dp[i] = (rhs[i] + dp[i - 1]) / m;
  }
  out[n - 1] = dp[n - 1];
  for (int i = n - 2; i >= 0; i--) out[i] = dp[i] - cp[i] * out[i + 1];
}

int main(void) {
  fz_seed(1168);
  double d[N], b[N], c[N], dd[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) d[i] = 2.5 + fz_uniform(0, 1);
  fz_fill(b, N, -1, 1);
  fz_fill(c, N, -1, 1);
  double x[N], w[N];
  thomas(d, b, x, N);
  thomas(d, c, w, N);
  double f = 0;
  for (int i = 0; i < N; i++) f += c[i] * x[i];
  fz_check("primal c^T A^-1 b", cg_objective(d, b, c, N), f, 1e-10);
  __enzyme_autodiff((void *)cg_objective, enzyme_dup, d, dd, enzyme_dup, b, db, enzyme_const, c,
                    enzyme_const, N);
  double want_d[N];
  for (int i = 0; i < N; i++) want_d[i] = -w[i] * x[i];
  fz_check_arr("db = A^-1 c", db, w, N, 1e-9);
  fz_check_arr("dd = -w x", dd, want_d, N, 1e-9);
  double td[N], tb[N], want = 0;
  for (int i = 0; i < N; i++) {
    td[i] = fz_uniform(-1, 1);
    tb[i] = fz_uniform(-1, 1);
    want += td[i] * want_d[i] + tb[i] * w[i];
  }
  double t = __enzyme_fwddiff((void *)cg_objective, enzyme_dup, d, td, enzyme_dup, b, tb,
                              enzyme_const, c, enzyme_const, N);
  fz_check("forward = <grad, v>", t, want, 1e-9);
  return fz_finish();
}
