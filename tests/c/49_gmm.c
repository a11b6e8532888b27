// OPT: O0 O1 O2 O3
// "GMM-like": log-likelihood of a diagonal Gaussian mixture with a stable
// log-sum-exp per point; gradient w.r.t. weights, means and log-precisions
// (data constant). Prints TIMING.
#include "fz_test.h"

#define K 4
#define D 3
#define NPTS 64
#define NPARAM (K + K * D + K * D)

static double lse(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++) m = v[i] > m ? v[i] : m;
  double s = 0.0;
  for (int i = 0; i < n; i++) s += exp(v[i] - m);
  return m + log(s);
}

double gmm_objective(const double *p, const double *X, int npts) {
  const double *alpha = p, *mu = p + K, *lprec = p + K + K * D;
  double comp[K];
  double total = 0.0;
  for (int i = 0; i < npts; i++) {
    for (int k = 0; k < K; k++) {
      double q = alpha[k];
      for (int d = 0; d < D; d++) {
        double diff = X[i * D + d] - mu[k * D + d];
        q += 0.5 * lprec[k * D + d] - 0.5 * exp(lprec[k * D + d]) * diff * diff;
      }
      comp[k] = q;
    }
    total += lse(comp, K);
  }
  return total - (double)npts * lse(alpha, K);
}

struct ctx { double *p, *dp, *X; };
static double eval(void *c) { struct ctx *q = c; return gmm_objective(q->p, q->X, NPTS); }
static void run_primal(void *c) { fz_sink = eval(c); }
static void run_grad(void *c) {
  struct ctx *q = c;
  fz_zero(q->dp, NPARAM);
  __enzyme_autodiff((void *)gmm_objective, enzyme_dup, q->p, q->dp, enzyme_const, q->X,
                    enzyme_const, NPTS);
}

int main(void) {
  fz_seed(49);
  static double p[NPARAM], dp[NPARAM], fd[NPARAM], X[NPTS * D];
  fz_fill(p, NPARAM, -1, 1);
  fz_fill(X, NPTS * D, -2, 2);
  struct ctx c = {p, dp, X};
  run_grad(&c);
  fz_fd_grad(eval, &c, p, NPARAM, fd);
  fz_check_arr("dobj/dp fd", dp, fd, NPARAM, 1e-6);
  /* analytic: sum over alpha gradients is 0 (shift invariance of alpha) */
  double sa = 0;
  for (int k = 0; k < K; k++) sa += dp[k];
  fz_check("sum dobj/dalpha = 0", sa, 0.0, 1e-10);
  double tp = fz_time_ns(run_primal, &c);
  double tg = fz_time_ns(run_grad, &c);
  fz_timing(tp, tg);
  return fz_finish();
}
