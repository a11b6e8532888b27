// OPT: O0 O2 O3
// enzyme_dupnoneed lets reverse mode skip the primal stores into that
// argument's memory when nothing reads them back (reverse/memory.rs,
// dropped_stores): the gradient must be the same as with enzyme_dup, also
// when the output is read back inside the function (stores kept), when it
// aliases an input (stores kept), and for a final `*err = v` store. Oracles:
// finite differences of the primal.
#include "fz_test.h"

#define N 12

/* restrict output, written and never read: its stores are dropped (Enzyme's
 * Brusselator harness even passes a null primal pointer for such outputs) */
void rhs(double *restrict out, const double *restrict x, const double *restrict p, int n) {
  for (int i = 0; i < n; i++) {
    double l = x[i > 0 ? i - 1 : 0] + x[i < n - 1 ? i + 1 : n - 1] - 2.0 * x[i];
    out[i] = p[0] * l + x[i] * x[i] * p[1];
  }
}

/* restrict output read back: the stores stay */
void cumprod(double *restrict out, const double *restrict x, int n) {
  out[0] = x[0];
  for (int i = 1; i < n; i++) out[i] = out[i - 1] * x[i] + 0.1 * x[i];
}

/* output aliasing the input (out = x + 1): the stores stay */
void recur(double *out, const double *x, int n) {
  for (int i = 0; i < n; i++) out[i] = 0.5 * x[i] * x[i] + 0.3 * x[i];
}

/* a final result store through a pointer that is not restrict */
void energy(const double *x, double *err, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  *err = s;
}

static double X[N + 1], W[N + 1], P[2];

static double eval_rhs(void *unused) {
  (void)unused;
  double out[N], s = 0;
  rhs(out, X, P, N);
  for (int i = 0; i < N; i++) s += W[i] * out[i];
  return s;
}
static double eval_cumprod(void *unused) {
  (void)unused;
  double out[N], s = 0;
  cumprod(out, X, N);
  for (int i = 0; i < N; i++) s += W[i] * out[i];
  return s;
}
static double eval_recur(void *unused) {
  (void)unused;
  double b[N + 1], s = 0;
  memcpy(b, X, sizeof b);
  recur(b + 1, b, N);
  for (int i = 0; i <= N; i++) s += W[i] * b[i];
  return s;
}
static double eval_energy(void *unused) {
  (void)unused;
  double e;
  energy(X, &e, N);
  return e;
}

int main(void) {
  fz_seed(290);
  fz_fill(X, N + 1, -1, 1);
  fz_fill(W, N + 1, -1, 1);
  P[0] = 1.7, P[1] = -0.4;
  double dx[N + 1], dp[2], dout[N], want[N + 1], out[N];

  /* rhs: dupnoneed with a null primal output, and dupnoneed with a buffer */
  for (int pass = 0; pass < 2; pass++) {
    fz_zero(dx, N), fz_zero(dp, 2);
    memcpy(dout, W, sizeof dout);
    __enzyme_autodiff((void *)rhs, enzyme_dupnoneed, pass ? out : NULL, dout, enzyme_dup, X, dx,
                      enzyme_dup, P, dp, enzyme_const, N);
    fz_fd_grad(eval_rhs, NULL, X, N, want);
    fz_check_arr(pass ? "rhs dx (buffer)" : "rhs dx (null output)", dx, want, N, 1e-6);
    fz_fd_grad(eval_rhs, NULL, P, 2, want);
    fz_check_arr("rhs dp", dp, want, 2, 1e-6);
  }

  fz_zero(dx, N);
  memcpy(dout, W, sizeof dout);
  __enzyme_autodiff((void *)cumprod, enzyme_dupnoneed, out, dout, enzyme_dup, X, dx, enzyme_const,
                    N);
  fz_fd_grad(eval_cumprod, NULL, X, N, want);
  fz_check_arr("cumprod dx", dx, want, N, 1e-6);

  /* in place: the shadow of b holds the output seeds and receives the gradient */
  double b[N + 1], db[N + 1];
  memcpy(b, X, sizeof b);
  memcpy(db, W, sizeof db);
  __enzyme_autodiff((void *)recur, enzyme_dupnoneed, b + 1, db + 1, enzyme_dup, b, db,
                    enzyme_const, N);
  fz_fd_grad(eval_recur, NULL, X, N + 1, want);
  fz_check_arr("recur d b (aliasing output)", db, want, N + 1, 1e-6);

  double e = 0, de = 1.0;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)energy, enzyme_dup, X, dx, enzyme_dupnoneed, &e, &de, enzyme_const,
                    N);
  fz_fd_grad(eval_energy, NULL, X, N, want);
  fz_check_arr("energy dx (final store)", dx, want, N, 1e-6);
  return fz_finish();
}
