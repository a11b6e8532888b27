// OPT: O0 O2
// ARGS: -lopenblas
// Split mode (`__enzyme_augmentfwd` returning `{ void *tape; double ret; }`, then
// `__enzyme_reverse` with the result's adjoint and the tape) through what updates memory
// in place: a registered gradient of a function squaring an array in place (its
// augmented function keeps the old values in its tape, its reverse function reads them),
// `cblas_daxpy` (y += a x, a built-in BLAS rule) and `cblas_dscal`, and a time loop run
// through `__enzyme_checkpoint_for` (state updated in place each step). Several tapes
// alive at once, reversed in another order; the same functions also differentiated
// directly as the registered function (split pair of the rule itself). Oracles: the primal
// result and state after the augmented call, central differences of the whole function,
// a combined `__enzyme_autodiff` of the same function.
#include "fz_test.h"
#include "fz_modes.h"
#include <cblas.h>
#include <enzyme/checkpoint.h>

#define N 5
#define K 3

static int sq_body, sq_aug_runs, sq_rev_runs;
__attribute__((noinline)) void sq(double *x, int n) {
  sq_body++;
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
}
void *sq_aug(double *x, double *dx, int n) {
  (void)dx;
  sq_aug_runs++;
  double *old = malloc(n * sizeof *old);
  for (int i = 0; i < n; i++) old[i] = x[i], x[i] = x[i] * x[i];
  return old;
}
void sq_rev(double *x, double *dx, int n, void *tape) {
  (void)x;
  sq_rev_runs++;
  double *old = tape;
  for (int i = 0; i < n; i++) dx[i] *= 2 * old[i];
  free(old);
}
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};

/* registered in-place rule, then values read after it */
double f_sq(double *x, const double *w, double a) {
  double s = 0;
  for (int i = 0; i < N; i++) x[i] = sin(a * x[i]) + w[i];
  sq(x, N);
  for (int i = 0; i < N; i++) s += w[i] * x[i] * x[i] + cos(x[i]);
  return s;
}

/* BLAS updating y in place */
double f_blas(double *x, double *y, double a) {
  cblas_daxpy(N, a, x, 1, y, 1);
  cblas_dscal(N, 0.5 + a * a, y, 1);
  cblas_daxpy(N, -a, y, 1, x, 1);
  double s = 0;
  for (int i = 0; i < N; i++) s += x[i] * y[i] + y[i] * y[i] * y[i];
  return s;
}

/* checkpointed time loop */
__attribute__((noinline)) static void step(int64_t i, double *u, double dt) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + dt * (u[(k + 1) % N] - 2 * u[k] + u[(k + N - 1) % N] - 0.2 * u[k] * u[k] +
                        0.05 * (double)i);
  for (int k = 0; k < N; k++) u[k] = t[k];
}
double f_ckpt(double *u, double dt) {
  __enzyme_checkpoint_for((void *)step, 0, 8, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, dt);
  double s = 0;
  for (int k = 0; k < N; k++) s += (1 + 0.3 * k) * u[k] * u[k];
  return s;
}

typedef double (*fn3)(double *, double *, double);
static double call_sq(double *x, double *w, double a) { return f_sq(x, w, a); }
static double call_blas(double *x, double *y, double a) { return f_blas(x, y, a); }
static double call_ckpt(double *u, double *unused, double dt) {
  (void)unused;
  return f_ckpt(u, dt);
}

/* all inputs packed: x (N), y (N), a */
static fn3 cur;
static double packed(void *p) {
  const double *z = p;
  double x[N], y[N];
  memcpy(x, z, sizeof x);
  memcpy(y, z + N, sizeof y);
  return cur(x, y, z[2 * N]);
}

static void check_fd(const char *what, const double *z0, const double *dx, const double *dy,
                     double da, int y_active) {
  double z[2 * N + 1];
  memcpy(z, z0, sizeof z);
  char b[96];
  for (int i = 0; i < N; i++) {
    snprintf(b, sizeof b, "%s d/dx[%d]", what, i);
    fz_check(b, dx[i], fz_fd_ptr(packed, z, &z[i]), 1e-6);
    if (y_active) {
      snprintf(b, sizeof b, "%s d/dy[%d]", what, i);
      fz_check(b, dy[i], fz_fd_ptr(packed, z, &z[N + i]), 1e-6);
    }
  }
  snprintf(b, sizeof b, "%s d/da", what);
  fz_check(b, da, fz_fd_ptr(packed, z, &z[2 * N]), 1e-6);
}

int main(void) {
  fz_seed(1401);
  double z0[K][2 * N + 1], x[K][N], y[K][N], dx[K][N], dy[K][N], da[K];
  fz_aug t[K];
  const int order[K] = {1, 2, 0};

  /* f_sq: y is w (constant), K tapes alive at once */
  cur = call_sq;
  for (int k = 0; k < K; k++) {
    fz_fill(z0[k], 2 * N + 1, -0.9, 0.9);
    memcpy(x[k], z0[k], sizeof x[k]);
    memcpy(y[k], z0[k] + N, sizeof y[k]);
    fz_zero(dx[k], N);
    double xc[N], wc[N];
    memcpy(xc, x[k], sizeof xc);
    memcpy(wc, y[k], sizeof wc);
    double want = f_sq(xc, wc, z0[k][2 * N]);
    t[k] = __enzyme_augmentfwd_ret((void *)f_sq, enzyme_dup, x[k], dx[k], enzyme_const, y[k],
                                   enzyme_out, z0[k][2 * N]);
    fz_mcheck("f_sq: primal result of the augmented call", t[k].ret, want, 1e-14);
    fz_mcheck_arr("f_sq: state after the augmented call", x[k], xc, N, 1e-14);
  }
  for (int j = 0; j < K; j++) {
    int k = order[j];
    da[k] = __enzyme_reverse((void *)f_sq, enzyme_dup, x[k], dx[k], enzyme_const, y[k],
                             enzyme_out, z0[k][2 * N], 1.0, t[k].tape);
    check_fd("f_sq split", z0[k], dx[k], NULL, da[k], 0);
  }
  fz_mcheck("f_sq: the rule's augmented function once per call", sq_aug_runs, K, 0);
  fz_mcheck("f_sq: the rule's reverse function once per call", sq_rev_runs, K, 0);

  /* the registered function itself in split mode: x <- x^2, seeded dx = 1 + i */
  {
    double v[N], dv[N], v0[N];
    fz_fill(v, N, -1.2, 1.2);
    memcpy(v0, v, sizeof v);
    for (int i = 0; i < N; i++) dv[i] = 0;
    void *tp = __enzyme_augmentfwd((void *)sq, enzyme_dup, v, dv, N);
    for (int i = 0; i < N; i++) {
      fz_mcheck("sq split: x squared", v[i], v0[i] * v0[i], 1e-15);
      dv[i] = 1 + i;
    }
    __enzyme_reverse((void *)sq, enzyme_dup, v, dv, N, tp);
    for (int i = 0; i < N; i++) fz_mcheck("sq split: dx", dv[i], 2 * v0[i] * (1 + i), 1e-14);
  }

  /* f_blas: x and y both active */
  cur = call_blas;
  for (int k = 0; k < K; k++) {
    fz_fill(z0[k], 2 * N + 1, -0.9, 0.9);
    memcpy(x[k], z0[k], sizeof x[k]);
    memcpy(y[k], z0[k] + N, sizeof y[k]);
    fz_zero(dx[k], N);
    fz_zero(dy[k], N);
    double xc[N], yc[N];
    memcpy(xc, x[k], sizeof xc);
    memcpy(yc, y[k], sizeof yc);
    double want = f_blas(xc, yc, z0[k][2 * N]);
    t[k] = __enzyme_augmentfwd_ret((void *)f_blas, enzyme_dup, x[k], dx[k], enzyme_dup, y[k],
                                   dy[k], enzyme_out, z0[k][2 * N]);
    fz_mcheck("f_blas: primal result of the augmented call", t[k].ret, want, 1e-13);
    fz_mcheck_arr("f_blas: x after the augmented call", x[k], xc, N, 1e-14);
    fz_mcheck_arr("f_blas: y after the augmented call", y[k], yc, N, 1e-14);
  }
  for (int j = 0; j < K; j++) {
    int k = order[j];
    da[k] = __enzyme_reverse((void *)f_blas, enzyme_dup, x[k], dx[k], enzyme_dup, y[k], dy[k],
                             enzyme_out, z0[k][2 * N], 1.0, t[k].tape);
    check_fd("f_blas split", z0[k], dx[k], dy[k], da[k], 1);
  }

  /* f_ckpt: the state u (x), dt */
  cur = call_ckpt;
  for (int k = 0; k < K; k++) {
    fz_fill(z0[k], 2 * N + 1, -0.5, 0.5);
    z0[k][2 * N] = 0.05 + 0.02 * k;
    memcpy(x[k], z0[k], sizeof x[k]);
    fz_zero(dx[k], N);
    double xc[N];
    memcpy(xc, x[k], sizeof xc);
    double want = f_ckpt(xc, z0[k][2 * N]);
    t[k] = __enzyme_augmentfwd_ret((void *)f_ckpt, enzyme_dup, x[k], dx[k], enzyme_out,
                                   z0[k][2 * N]);
    fz_mcheck("f_ckpt: primal result of the augmented call", t[k].ret, want, 1e-13);
    fz_mcheck_arr("f_ckpt: state after the augmented call", x[k], xc, N, 1e-14);
  }
  for (int j = 0; j < K; j++) {
    int k = order[j];
    da[k] = __enzyme_reverse((void *)f_ckpt, enzyme_dup, x[k], dx[k], enzyme_out, z0[k][2 * N],
                             1.0, t[k].tape);
    check_fd("f_ckpt split", z0[k], dx[k], NULL, da[k], 0);
    /* the combined derivative agrees */
    double u[N], du[N] = {0};
    memcpy(u, z0[k], sizeof u);
    double dd = __enzyme_autodiff((void *)f_ckpt, enzyme_dup, u, du, enzyme_out, z0[k][2 * N]);
    fz_mcheck("f_ckpt split = combined (dt)", da[k], dd, 1e-12);
    fz_mcheck_arr("f_ckpt split = combined (u)", dx[k], du, N, 1e-12);
  }
  return fz_finish();
}
