// OPT: O0 O1 O2 O3
// CFLAGS: -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
// Adjacent loops of a derivative fused after the pipeline
// (crates/ferrozyme-transform/src/adjoint_fusion.rs, bench/README "gmm14"): GMM's
// `xc = x - mu`, `y = q * xc`, `s = sum y^2`. The derivative is called from five places
// so that it stays a function of its own (where the fusion applies): the reverses of the
// `sqnorm` and `q * xc` loops fuse (dy[i] in a register), the reverse of `x - mu` stays
// apart (it writes dmu, the other dq: two shadows that may be one buffer), and the last
// call passes one buffer as both shadows, whose gradient is then the sum of both.
// Without the vectorizers (as at Enzyme's harness flags), so the loops stay one block each.
// n = 1, 2, 7. Oracles: analytic gradients (ds/dmu_i = -2 q_i^2 (x_i - mu_i),
// ds/dq_i = 2 q_i (x_i - mu_i)^2, times each call's seed) and central finite
// differences.
#include "fz_test.h"

enum { NMAX = 7, CALLS = 5 };

void f(long n, const double *x, const double *mu, const double *q, double *out) {
  double *xc = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  for (long i = 0; i < n; i++) xc[i] = x[i] - mu[i];
  for (long i = 0; i < n; i++) y[i] = q[i] * xc[i];
  double s = 0.0;
  for (long i = 0; i < n; i++) s += y[i] * y[i];
  *out = s;
  free(xc);
  free(y);
}

static double X[NMAX], MU[NMAX], Q[NMAX];
static long N;

static double eval_f(void *u) {
  (void)u;
  double s;
  f(N, X, MU, Q, &s);
  return s;
}

#define G(DMU, DQ, K)                                                                      \
  __enzyme_autodiff((void *)f, enzyme_const, N, enzyme_const, X, enzyme_dup, MU, DMU,      \
                    enzyme_dup, Q, DQ, enzyme_dupnoneed, &out, &dout[K])

/* Five calls: seeds 1..4 into their own buffers, seed 5 into one buffer for both. */
static __attribute__((noinline)) void grads(double dmu[][NMAX], double dq[][NMAX],
                                            double *both) {
  double out, dout[CALLS] = {1, 2, 3, 4, 5};
  G(dmu[0], dq[0], 0);
  G(dmu[1], dq[1], 1);
  G(dmu[2], dq[2], 2);
  G(dmu[3], dq[3], 3);
  G(both, both, 4);
}

int main(void) {
  static const long NS[] = {1, 2, 7};
  for (int t = 0; t < 3; t++) {
    N = NS[t];
    fz_fill(X, NMAX, -1.0, 1.0);
    fz_fill(MU, NMAX, -0.5, 0.5);
    fz_fill(Q, NMAX, 0.5, 1.5);
    double dmu[CALLS - 1][NMAX], dq[CALLS - 1][NMAX], both[NMAX];
    for (int k = 0; k < CALLS - 1; k++) {
      fz_zero(dmu[k], NMAX);
      fz_zero(dq[k], NMAX);
    }
    fz_zero(both, NMAX);
    grads(dmu, dq, both);
    char what[96];
    for (int k = 0; k < CALLS; k++) {
      double seed = k + 1, wmu[NMAX], wq[NMAX], wboth[NMAX];
      for (long i = 0; i < N; i++) {
        double y = X[i] - MU[i];
        wmu[i] = -2 * Q[i] * Q[i] * y * seed;
        wq[i] = 2 * Q[i] * y * y * seed;
        wboth[i] = wmu[i] + wq[i];
      }
      if (k < CALLS - 1) {
        snprintf(what, sizeof what, "n=%ld call %d d/dmu analytic", N, k);
        fz_check_arr(what, dmu[k], wmu, N, 1e-12);
        snprintf(what, sizeof what, "n=%ld call %d d/dq analytic", N, k);
        fz_check_arr(what, dq[k], wq, N, 1e-12);
      } else {
        snprintf(what, sizeof what, "n=%ld one buffer for d/dmu and d/dq", N);
        fz_check_arr(what, both, wboth, N, 1e-12);
      }
    }
    double fmu[NMAX], fq[NMAX];
    fz_fd_grad(eval_f, 0, MU, N, fmu);
    fz_fd_grad(eval_f, 0, Q, N, fq);
    snprintf(what, sizeof what, "n=%ld d/dmu (finite differences)", N);
    fz_check_arr(what, dmu[0], fmu, N, 1e-6);
    snprintf(what, sizeof what, "n=%ld d/dq (finite differences)", N);
    fz_check_arr(what, dq[0], fq, N, 1e-6);
  }
  return fz_finish();
}
