/* GMM: ADBench's Gaussian mixture model objective with a Wishart prior
 * (BENCHMARKS.md section 2), its reverse-mode gradient through
 * `__enzyme_autodiff`, and a hand-written gradient (the lower bound).
 *
 * Parameters per component k: alphas[k], means[k*d + j], icf[k*d(d+1)/2 + t]
 * (d log-diagonal entries of Q_k, then the strictly lower part column by
 * column).  The data x and the prior are constant.  The objective keeps
 * ADBench's structure: helper functions, scratch buffers from malloc, a
 * max-shifted log-sum-exp per point.
 */
#include "bench.h"

#define GMM_PI 3.14159265359 /* ADBench's constant (not M_PI): matches the references */

typedef struct {
  double gamma;
  int m;
} Wishart;

static double arr_max(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m;
}

static double sqnorm(int n, const double *x) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

static void subtract(int d, const double *x, const double *y, double *out) {
  for (int i = 0; i < d; i++) out[i] = x[i] - y[i];
}

static double logsumexp(int n, const double *x) {
  double mx = arr_max(n, x);
  double s = 0.0;
  for (int i = 0; i < n; i++) s += exp(x[i] - mx);
  return log(s) + mx;
}

/* ln of the multivariate gamma function Gamma_p(a). */
static double log_gamma_distrib(double a, double p) {
  double out = 0.25 * p * (p - 1) * log(GMM_PI);
  for (int j = 1; j <= (int)p; j++) out += lgamma(a + 0.5 * (1 - j));
  return out;
}

/* sum_qs[k] = sum_j q_k[j]; Qdiags[k*d + j] = exp(q_k[j]). */
static void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *Qdiags) {
  int icf_sz = d * (d + 1) / 2;
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0.0;
    for (int id = 0; id < d; id++) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] += q;
      Qdiags[ik * d + id] = exp(q);
    }
  }
}

/* out = Q x, Q lower triangular: diagonal Qdiag, strictly lower part ltri
 * stored column by column. */
static void Qtimesx(int d, const double *Qdiag, const double *ltri, const double *x,
                    double *out) {
  for (int i = 0; i < d; i++) out[i] = Qdiag[i] * x[i];
  int t = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      out[r] += ltri[t] * x[c];
      t++;
    }
}

static double log_wishart_prior(int d, int k, Wishart wishart, const double *sum_qs,
                                const double *Qdiags, const double *icf) {
  int n = d + wishart.m + 1;
  int icf_sz = d * (d + 1) / 2;
  double C = n * d * (log(wishart.gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, d);
  double out = 0.0;
  for (int ik = 0; ik < k; ik++) {
    double frobenius = sqnorm(d, &Qdiags[ik * d]) + sqnorm(icf_sz - d, &icf[ik * icf_sz + d]);
    out += 0.5 * wishart.gamma * wishart.gamma * frobenius - wishart.m * sum_qs[ik];
  }
  return out - k * C;
}

/* The differentiated function: *err = E(alphas, means, icf). A file defining
 * GMM_OBJECTIVE_ELSEWHERE before including this one (gmm_fused.c) brings its own
 * formulation of it and reuses the rest (hand gradient, checks, timing). */
#ifdef GMM_OBJECTIVE_ELSEWHERE
void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err);
#else
void gmm_objective(int d, int k, int n, const double *alphas, const double *means,
                   const double *icf, const double *x, Wishart wishart, double *err) {
  int icf_sz = d * (d + 1) / 2;
  double constant = -n * d * 0.5 * log(2 * GMM_PI);
  double *Qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *xcentered = malloc(sizeof(double) * d);
  double *Qxcentered = malloc(sizeof(double) * d);
  double *main_term = malloc(sizeof(double) * k);

  preprocess_qs(d, k, icf, sum_qs, Qdiags);
  double slse = 0.0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      subtract(d, &x[ix * d], &means[ik * d], xcentered);
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered, Qxcentered);
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
    }
    slse += logsumexp(k, main_term);
  }
  double lse_alphas = logsumexp(k, alphas);
  *err = constant + slse - n * lse_alphas +
         log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);

  free(Qdiags);
  free(sum_qs);
  free(xcentered);
  free(Qxcentered);
  free(main_term);
}
#endif

/* Hand-written gradient (written from the formulas, see the derivation in
 * bench/README.md): with y = x_i - mu_k, z = Q_k y and the softmax weight
 * p_k of main_term over k,
 *   dalpha_k += p_k,  dmu_k += p_k Q_k^T z,
 *   dq_k[j] += p_k (1 - z_j exp(q_k[j]) y_j),  dl_k[(r,c)] += -p_k z_r y_c,
 * then dalpha -= n softmax(alpha) and the prior adds gamma^2 exp(2q) - m and
 * gamma^2 l.  Also returns the objective. */
double gmm_hand_gradient(int d, int k, int n, const double *alphas, const double *means,
                         const double *icf, const double *x, Wishart wishart, double *galphas,
                         double *gmeans, double *gicf) {
  int icf_sz = d * (d + 1) / 2;
  double *Qdiags = malloc(sizeof(double) * d * k);
  double *sum_qs = malloc(sizeof(double) * k);
  double *ys = malloc(sizeof(double) * d * k);  /* y for every k of one point */
  double *zs = malloc(sizeof(double) * d * k);  /* z for every k of one point */
  double *main_term = malloc(sizeof(double) * k);
  double *qtz = malloc(sizeof(double) * d);

  memset(galphas, 0, sizeof(double) * k);
  memset(gmeans, 0, sizeof(double) * d * k);
  memset(gicf, 0, sizeof(double) * icf_sz * k);
  preprocess_qs(d, k, icf, sum_qs, Qdiags);

  double slse = 0.0;
  for (int ix = 0; ix < n; ix++) {
    const double *xi = &x[ix * d];
    for (int ik = 0; ik < k; ik++) {
      double *y = &ys[ik * d], *z = &zs[ik * d];
      subtract(d, xi, &means[ik * d], y);
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], y, z);
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, z);
    }
    double mx = arr_max(k, main_term), s = 0.0;
    for (int ik = 0; ik < k; ik++) {
      main_term[ik] = exp(main_term[ik] - mx);
      s += main_term[ik];
    }
    slse += log(s) + mx;
    double inv = 1.0 / s;
    for (int ik = 0; ik < k; ik++) {
      double p = main_term[ik] * inv;
      const double *y = &ys[ik * d], *z = &zs[ik * d];
      const double *Qd = &Qdiags[ik * d], *l = &icf[ik * icf_sz + d];
      double *gq = &gicf[ik * icf_sz], *gl = gq + d, *gm = &gmeans[ik * d];
      galphas[ik] += p;
      /* Q^T z: diagonal part, then the strictly lower part column by column */
      for (int j = 0; j < d; j++) qtz[j] = Qd[j] * z[j];
      int t = 0;
      for (int c = 0; c < d; c++)
        for (int r = c + 1; r < d; r++) {
          qtz[c] += l[t] * z[r];
          gl[t] -= p * z[r] * y[c];
          t++;
        }
      for (int j = 0; j < d; j++) {
        gm[j] += p * qtz[j];
        gq[j] += p * (1.0 - z[j] * Qd[j] * y[j]);
      }
    }
  }
  /* - n * LSE(alpha) */
  double mx = arr_max(k, alphas), s = 0.0;
  for (int ik = 0; ik < k; ik++) s += exp(alphas[ik] - mx);
  for (int ik = 0; ik < k; ik++) galphas[ik] -= n * exp(alphas[ik] - mx) / s;
  double lse_alphas = log(s) + mx;
  /* Wishart prior */
  double g2 = wishart.gamma * wishart.gamma;
  for (int ik = 0; ik < k; ik++) {
    double *gq = &gicf[ik * icf_sz];
    for (int j = 0; j < d; j++) {
      double e = Qdiags[ik * d + j];
      gq[j] += g2 * e * e - wishart.m;
    }
    for (int t = d; t < icf_sz; t++) gq[t] += g2 * icf[ik * icf_sz + t];
  }
  double constant = -n * d * 0.5 * log(2 * GMM_PI);
  double obj = constant + slse - n * lse_alphas +
               log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);
  free(Qdiags);
  free(sum_qs);
  free(ys);
  free(zs);
  free(main_term);
  free(qtz);
  return obj;
}

/* ---- harness ------------------------------------------------------------ */
typedef struct {
  int d, k, n;
  double *alphas, *means, *icf, *x;
  Wishart wishart;
  double *galphas, *gmeans, *gicf; /* gradient buffers */
  double err;
} gmm_ctx;

static void run_primal(void *p) {
  gmm_ctx *c = p;
  gmm_objective(c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x, c->wishart, &c->err);
  bench_sink = c->err;
}

static void run_grad(void *p) {
  gmm_ctx *c = p;
  int icf_sz = c->d * (c->d + 1) / 2;
  memset(c->galphas, 0, sizeof(double) * c->k);
  memset(c->gmeans, 0, sizeof(double) * c->k * c->d);
  memset(c->gicf, 0, sizeof(double) * c->k * icf_sz);
  double err = 0.0, derr = 1.0;
  __enzyme_autodiff((void *)gmm_objective, enzyme_const, c->d, enzyme_const, c->k,
                    enzyme_const, c->n, enzyme_dup, c->alphas, c->galphas, enzyme_dup,
                    c->means, c->gmeans, enzyme_dup, c->icf, c->gicf, enzyme_const, c->x,
                    enzyme_const, c->wishart, enzyme_dupnoneed, &err, &derr);
  bench_sink = c->galphas[0];
}

static void run_hand(void *p) {
  gmm_ctx *c = p;
  bench_sink = gmm_hand_gradient(c->d, c->k, c->n, c->alphas, c->means, c->icf, c->x,
                                 c->wishart, c->galphas, c->gmeans, c->gicf);
}

static double eval_objective(void *p) {
  run_primal(p);
  return ((gmm_ctx *)p)->err;
}

/* Copies the gradient buffers into one vector [alphas, means, icf]. */
static double *gather(gmm_ctx *c, long len) {
  double *g = malloc(sizeof(double) * len);
  long icf_len = (long)c->k * c->d * (c->d + 1) / 2;
  memcpy(g, c->galphas, sizeof(double) * c->k);
  memcpy(g + c->k, c->gmeans, sizeof(double) * c->k * c->d);
  memcpy(g + c->k + c->k * c->d, c->gicf, sizeof(double) * icf_len);
  return g;
}

/* Checks a gradient against the reference values and finite differences. */
static void check_gradient(gmm_ctx *c, const char *who, const double *g, long len,
                           const char *json, const char *key, const char *data) {
  char what[256];
  double tol = 1e-6; /* ADBench's distance; -ffast-math builds */
  double ref[8];
  if (json && key) {
    if (bench_json_nums(json, key, "grad_len", ref, 1) == 1) {
      snprintf(what, sizeof what, "%s gradient length", who);
      bench_check(what, (double)len, ref[0], 0);
    }
    if (bench_json_nums(json, key, "grad_first5", ref, 5) == 5)
      for (int i = 0; i < 5 && i < len; i++) {
        snprintf(what, sizeof what, "%s grad[%d] vs reference", who, i);
        bench_check(what, g[i], ref[i], tol);
      }
    if (bench_json_nums(json, key, "grad_last5", ref, 5) == 5)
      for (int i = 0; i < 5 && i < len; i++) {
        snprintf(what, sizeof what, "%s grad[%ld] vs reference", who, len - 5 + i);
        bench_check(what, g[len - 5 + i], ref[i], tol);
      }
    double l2 = 0, sum = 0;
    for (long i = 0; i < len; i++) l2 += g[i] * g[i], sum += g[i];
    if (bench_json_nums(json, key, "grad_l2", ref, 1) == 1) {
      snprintf(what, sizeof what, "%s |grad|_2 vs reference", who);
      bench_check(what, sqrt(l2), ref[0], tol);
    }
    char file[1024];
    /* full gradient file: reference/gmm_grad/gmm_<set>_<name>.grad.txt */
    const char *slash = strchr(key + 4, '/');
    if (slash) {
      char set[64] = {0}, name[256] = {0};
      snprintf(set, sizeof set, "%.*s", (int)(slash - (key + 4)), key + 4);
      snprintf(name, sizeof name, "%.*s", (int)(strlen(slash + 1) - 4), slash + 1);
      snprintf(file, sizeof file, "%s/reference/gmm_grad/gmm_%s_%s.grad.txt", data, set, name);
      double *full;
      long nf = bench_read_vec(file, &full);
      if (nf > 0) {
        snprintf(what, sizeof what, "%s full gradient vs reference", who);
        if (nf != len)
          bench_fail("reference gradient file has the wrong length");
        else
          bench_check_arr(what, g, full, len, tol);
        free(full);
      }
    }
  }
  /* finite differences on a few coordinates: one alpha, one mean, one log-diagonal
   * and one off-diagonal icf entry */
  long icf_sz = (long)c->d * (c->d + 1) / 2;
  struct {
    double *arr;
    long idx, off;
  } picks[4] = {
      {c->alphas, c->k - 1, 0},
      {c->means, (long)(c->k / 2) * c->d + c->d / 2, c->k},
      {c->icf, (long)(c->k - 1) * icf_sz + c->d - 1, c->k + (long)c->k * c->d},
      {c->icf, (long)(c->k / 3) * icf_sz + icf_sz - 1, c->k + (long)c->k * c->d},
  };
  for (int i = 0; i < 4; i++) {
    double fd = bench_fd(eval_objective, c, &picks[i].arr[picks[i].idx], 1e-3);
    snprintf(what, sizeof what, "%s grad[%ld] vs finite differences", who,
             picks[i].off + picks[i].idx);
    bench_check(what, g[picks[i].off + picks[i].idx], fd, 1e-6);
  }
}

int main(int argc, char **argv) {
  bench_opts o = bench_parse(argc, argv);
  bench_reader r = bench_open(o.input);
  gmm_ctx c = {0};
  c.d = (int)bench_num(&r);
  c.k = (int)bench_num(&r);
  c.n = (int)bench_num(&r);
  int d = c.d, k = c.k, n = c.n, icf_sz = d * (d + 1) / 2;
  c.alphas = malloc(sizeof(double) * k);
  c.means = malloc(sizeof(double) * k * d);
  c.icf = malloc(sizeof(double) * k * icf_sz);
  c.x = malloc(sizeof(double) * (long)n * d);
  for (int i = 0; i < k; i++) c.alphas[i] = bench_num(&r);
  for (int i = 0; i < k * d; i++) c.means[i] = bench_num(&r);
  for (int i = 0; i < k * icf_sz; i++) c.icf[i] = bench_num(&r);
  for (long i = 0; i < (long)n * d; i++) c.x[i] = bench_num(&r);
  c.wishart.gamma = bench_num(&r);
  c.wishart.m = (int)bench_num(&r);
  free(r.buf);
  c.galphas = calloc(k, sizeof(double));
  c.gmeans = calloc((size_t)k * d, sizeof(double));
  c.gicf = calloc((size_t)k * icf_sz, sizeof(double));
  long len = k + (long)k * d + (long)k * icf_sz;
  printf("INFO gmm d=%d K=%d n=%d gradient length %ld\n", d, k, n, len);

  /* reference values */
  char path[1024];
  snprintf(path, sizeof path, "%s/reference/gmm_reference.json", o.data);
  char *json = bench_slurp(path);
  const char *key = strstr(o.input, "gmm/");
  double ref;
  run_primal(&c);
  if (json && key && bench_json_nums(json, key, "objective", &ref, 1) == 1)
    bench_check("objective vs reference", c.err, ref, 1e-8);
  else if (!json)
    printf("INFO no reference file %s\n", path);

  if (o.grad) {
    run_grad(&c);
    double *g = gather(&c, len);
    check_gradient(&c, "autodiff", g, len, json, key, o.data);
    free(g);
  }
  if (o.hand) {
    run_hand(&c);
    double hand_obj = bench_sink;
    run_primal(&c);
    bench_check("hand-written objective", hand_obj, c.err, 1e-8);
    double *g = gather(&c, len);
    check_gradient(&c, "hand-written", g, len, json, key, o.data);
    free(g);
  }
  free(json);
  if (bench_failures) return bench_finish(); /* never time a wrong gradient */
  if (o.dump) {
    /* --dump FILE: the objective, then the gradient [alphas, means, icf], one number per
     * line (what examples/rust-gmm compares its own with) */
    FILE *f = fopen(o.dump, "w");
    if (!f) {
      bench_fail("cannot write the --dump file");
      return bench_finish();
    }
    run_primal(&c); /* c.err: the finite differences above left a shifted point's */
    run_grad(&c);
    double *g = gather(&c, len);
    fprintf(f, "%.17g\n", c.err);
    for (long i = 0; i < len; i++) fprintf(f, "%.17g\n", g[i]);
    free(g);
    if (fclose(f) != 0) bench_fail("cannot write the --dump file");
    printf("INFO wrote the objective and gradient to %s\n", o.dump);
    if (bench_failures) return bench_finish();
  }

  if (o.primal) bench_measure("primal", run_primal, &c, &o);
  if (o.grad) bench_measure("grad", run_grad, &c, &o);
  if (o.hand) bench_measure("hand", run_hand, &c, &o);
  return bench_finish();
}
