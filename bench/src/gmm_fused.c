/* GMM, second formulation: the same objective, parameters, checks and timing as
 * gmm.c, written as one function the way a user writes it in plain C99 without
 * ADBench's helpers: variable-length arrays on the stack instead of malloc'd
 * scratch buffers, the log-sum-exps written out inline, and Q (x - mu) computed
 * row by row as a gather over the packed lower triangle (entry (r, c), c < r, of the
 * column-major packing at c (2d - c - 1) / 2 + r - c - 1) instead of gmm.c's
 * column-wise scatter. */
#define GMM_OBJECTIVE_ELSEWHERE
#include "gmm.c"

void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err) {
  const int icf_sz = d * (d + 1) / 2;
  double qdiag[k * d], sum_q[k], main_term[k], y[d];
  for (int ik = 0; ik < k; ik++) {
    double s = 0.0;
    for (int j = 0; j < d; j++) {
      s += icf[ik * icf_sz + j];
      qdiag[ik * d + j] = exp(icf[ik * icf_sz + j]);
    }
    sum_q[ik] = s;
  }

  double slse = 0.0;
  for (int ix = 0; ix < n; ix++) {
    const double *xi = &x[ix * d];
    for (int ik = 0; ik < k; ik++) {
      const double *mu = &means[ik * d], *l = &icf[ik * icf_sz + d];
      for (int j = 0; j < d; j++) y[j] = xi[j] - mu[j];
      double sq = 0.0;
      for (int r = 0; r < d; r++) {
        double z = qdiag[ik * d + r] * y[r];
        for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
        sq += z * z;
      }
      main_term[ik] = alphas[ik] + sum_q[ik] - 0.5 * sq;
    }
    double mx = main_term[0];
    for (int ik = 1; ik < k; ik++) mx = main_term[ik] > mx ? main_term[ik] : mx;
    double se = 0.0;
    for (int ik = 0; ik < k; ik++) se += exp(main_term[ik] - mx);
    slse += log(se) + mx;
  }

  double amx = alphas[0];
  for (int ik = 1; ik < k; ik++) amx = alphas[ik] > amx ? alphas[ik] : amx;
  double ase = 0.0;
  for (int ik = 0; ik < k; ik++) ase += exp(alphas[ik] - amx);
  double lse_alphas = log(ase) + amx;

  /* Wishart prior: 0.5 gamma^2 (|exp(q)|^2 + |l|^2) - m sum(q) per component, minus
   * k times the normalising constant. */
  int p = d + wishart.m + 1;
  double C = p * d * (log(wishart.gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * p, d);
  double prior = 0.0;
  for (int ik = 0; ik < k; ik++) {
    double fro = 0.0;
    for (int j = 0; j < d; j++) fro += qdiag[ik * d + j] * qdiag[ik * d + j];
    for (int t = d; t < icf_sz; t++) fro += icf[ik * icf_sz + t] * icf[ik * icf_sz + t];
    prior += 0.5 * wishart.gamma * wishart.gamma * fro - wishart.m * sum_q[ik];
  }
  *err = -n * d * 0.5 * log(2 * GMM_PI) + slse - n * lse_alphas + prior - k * C;
}
