/* heat2d_omp.c -- a 2-D heat equation with OpenMP: gradient vs primal, and how to
 * accumulate the adjoints of shared reads in a parallel reverse sweep.
 *
 * The loss: T explicit steps of the 5-point heat stencil on an N x N grid (fixed
 * boundary), each step a `#pragma omp parallel for` over rows, then a weighted sum of
 * squares. Ferrozyme differentiates it with respect to the initial field and the
 * diffusion coefficient; the reverse sweep of each step is a parallel region whose
 * threads add the adjoints of the cells they read with `atomicrmw fadd` (neighbouring
 * rows belong to other threads).
 *
 * Besides the primal and Ferrozyme's gradient, three hand-written reverse sweeps of one
 * step measure the accumulation strategies the issue asks about:
 *  - atomic:     scatter, every adjoint update atomic (what Ferrozyme generates);
 *  - private:    scatter into a per-thread copy of the adjoint, then reduce the copies;
 *  - gather:     each thread computes its own cells' adjoints from their neighbours'
 *                (race-free, but it needs the stencil's structure, which a general
 *                transform does not know).
 * Checks: Ferrozyme's gradient against the hand-written reverse sweep (every cell) and
 * central finite differences (3 cells and the coefficient). */
#include <omp.h>
#include "hpc_bench.h"

static int N, T;

static void step(const double *u, double *v, double k) {
#pragma omp parallel for
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) {
      int c = i * N + j;
      v[c] = u[c] + k * (u[c - N] + u[c + N] + u[c - 1] + u[c + 1] - 4 * u[c]);
    }
}

double loss(const double *u0, double k, int n, int steps) {
  double *a = (double *)malloc(sizeof(double) * n * n);
  double *b = (double *)malloc(sizeof(double) * n * n);
  memcpy(a, u0, sizeof(double) * n * n);
  memcpy(b, u0, sizeof(double) * n * n);
  for (int t = 0; t < steps; t++) {
    step(a, b, k);
    double *s = a;
    a = b;
    b = s;
  }
  double l = 0;
  for (int c = 0; c < n * n; c++) l += a[c] * a[c] * (1.0 + 1e-4 * (c % 97));
  free(a);
  free(b);
  return l;
}

/* ---- hand-written reverse sweeps of one step (du += dstep/du^T dv, dk += ...) ------ */

static double adj_atomic(const double *u, const double *dv, double *du, double k) {
  double dk = 0;
#pragma omp parallel for reduction(+ : dk)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++) {
      int c = i * N + j;
      double d = dv[c];
      dk += d * (u[c - N] + u[c + N] + u[c - 1] + u[c + 1] - 4 * u[c]);
#pragma omp atomic
      du[c] += d * (1 - 4 * k);
#pragma omp atomic
      du[c - N] += d * k;
#pragma omp atomic
      du[c + N] += d * k;
#pragma omp atomic
      du[c - 1] += d * k;
#pragma omp atomic
      du[c + 1] += d * k;
    }
  return dk;
}

static double *priv_buf;

static double adj_private(const double *u, const double *dv, double *du, double k) {
  double dk = 0;
  int nt = omp_get_max_threads();
#pragma omp parallel reduction(+ : dk)
  {
    double *mine = priv_buf + (size_t)omp_get_thread_num() * N * N;
    memset(mine, 0, sizeof(double) * N * N);
#pragma omp for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        int c = i * N + j;
        double d = dv[c];
        dk += d * (u[c - N] + u[c + N] + u[c - 1] + u[c + 1] - 4 * u[c]);
        mine[c] += d * (1 - 4 * k);
        mine[c - N] += d * k;
        mine[c + N] += d * k;
        mine[c - 1] += d * k;
        mine[c + 1] += d * k;
      }
#pragma omp for
    for (int c = 0; c < N * N; c++)
      for (int t = 0; t < nt; t++) du[c] += priv_buf[(size_t)t * N * N + c];
  }
  return dk;
}

static double adj_gather(const double *u, const double *dv, double *du, double k) {
  double dk = 0;
#pragma omp parallel for reduction(+ : dk)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int c = i * N + j;
      int inner = i > 0 && i < N - 1 && j > 0 && j < N - 1;
      double s = inner ? dv[c] * (1 - 4 * k) : 0;
      if (i > 1 && j > 0 && j < N - 1) s += dv[c - N] * k;
      if (i < N - 2 && j > 0 && j < N - 1) s += dv[c + N] * k;
      if (j > 1 && i > 0 && i < N - 1) s += dv[c - 1] * k;
      if (j < N - 2 && i > 0 && i < N - 1) s += dv[c + 1] * k;
      du[c] += s;
      if (inner) dk += dv[c] * (u[c - N] + u[c + N] + u[c - 1] + u[c + 1] - 4 * u[c]);
    }
  return dk;
}

/* The whole hand-written gradient (gather sweeps), for the check. */
static double hand_gradient(const double *u0, double k, double *g) {
  size_t n2 = (size_t)N * N;
  double *hist = (double *)malloc(sizeof(double) * n2 * (T + 1));
  memcpy(hist, u0, sizeof(double) * n2);
  for (int t = 0; t < T; t++) {
    memcpy(hist + (t + 1) * n2, hist + t * n2, sizeof(double) * n2);
    step(hist + t * n2, hist + (t + 1) * n2, k);
  }
  double *dv = (double *)malloc(sizeof(double) * n2), *du = (double *)malloc(sizeof(double) * n2);
  const double *last = hist + T * n2;
  for (size_t c = 0; c < n2; c++) dv[c] = 2 * last[c] * (1.0 + 1e-4 * (c % 97));
  double dk = 0;
  for (int t = T - 1; t >= 0; t--) {
    /* Boundary cells are copied unchanged: their adjoint passes through. */
    for (size_t c = 0; c < n2; c++) {
      int i = (int)(c / N), j = (int)(c % N);
      du[c] = (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? dv[c] : 0;
    }
    dk += adj_gather(hist + t * n2, dv, du, k);
    double *s = dv;
    dv = du;
    du = s;
  }
  memcpy(g, dv, sizeof(double) * n2);
  free(hist);
  free(dv);
  free(du);
  return dk;
}

static double *U0, *G, K = 0.12;

static void run_primal(void *c) {
  (void)c;
  volatile double l = loss(U0, K, N, T);
  (void)l;
}
static void run_grad(void *c) {
  (void)c;
  memset(G, 0, sizeof(double) * N * N);
  volatile double dk = __enzyme_autodiff_d((void *)loss, enzyme_dup, U0, G, enzyme_out, K,
                                           enzyme_const, N, enzyme_const, T);
  (void)dk;
}
static double *DV, *DU;
static int strategy;
static void run_adj(void *c) {
  (void)c;
  memset(DU, 0, sizeof(double) * N * N);
  double (*f)(const double *, const double *, double *, double) =
      strategy == 0 ? adj_atomic : strategy == 1 ? adj_private : adj_gather;
  volatile double dk = f(U0, DV, DU, K);
  (void)dk;
}

int main(int argc, char **argv) {
  N = hb_size(argc, argv, 256);
  T = 20;
  double min_time = hb_min_time(argc, argv);
  size_t n2 = (size_t)N * N;
  U0 = (double *)malloc(sizeof(double) * n2);
  G = (double *)malloc(sizeof(double) * n2);
  DV = (double *)malloc(sizeof(double) * n2);
  DU = (double *)malloc(sizeof(double) * n2);
  priv_buf = (double *)malloc(sizeof(double) * n2 * omp_get_max_threads());
  for (size_t c = 0; c < n2; c++) {
    U0[c] = sin(0.37 * c) * cos(0.011 * c);
    DV[c] = cos(0.13 * c);
  }
  /* Checks. */
  run_grad(0);
  double dk = __enzyme_autodiff_d((void *)loss, enzyme_dup, U0, DU, enzyme_out, K, enzyme_const, N,
                                  enzyme_const, T);
  double *hg = (double *)malloc(sizeof(double) * n2);
  double hdk = hand_gradient(U0, K, hg);
  double worst = 0;
  for (size_t c = 0; c < n2; c++) {
    double e = fabs(G[c] - hg[c]) / (fabs(hg[c]) > 1 ? fabs(hg[c]) : 1);
    if (e > worst) worst = e;
  }
  hb_check("gradient vs hand-written (max rel err)", worst, 0, 1e-9, 1);
  hb_check("dk vs hand-written", dk, hdk, 1e-9, 1);
  size_t probe[3] = {n2 / 2 + N / 3, (size_t)N + 1, n2 - N - 2};
  for (int p = 0; p < 3; p++) {
    double x = U0[probe[p]], h = 1e-6 * (fabs(x) > 1 ? fabs(x) : 1);
    U0[probe[p]] = x + h;
    double lp = loss(U0, K, N, T);
    U0[probe[p]] = x - h;
    double lm = loss(U0, K, N, T);
    U0[probe[p]] = x;
    char what[64];
    snprintf(what, sizeof what, "gradient[%zu] vs finite differences", probe[p]);
    hb_check(what, G[probe[p]], (lp - lm) / (2 * h), 1e-6, 1);
  }
  /* The three accumulation strategies agree. */
  double ref[3];
  for (strategy = 0; strategy < 3; strategy++) {
    run_adj(0);
    ref[strategy] = 0;
    for (size_t c = 0; c < n2; c++) ref[strategy] += DU[c] * (1 + 1e-3 * (c % 13));
  }
  hb_check("private vs atomic", ref[1], ref[0], 1e-12, 1);
  hb_check("gather vs atomic", ref[2], ref[0], 1e-12, 1);

  printf("TIME primal %.9g\n", hb_time(run_primal, 0, min_time));
  printf("TIME grad %.9g\n", hb_time(run_grad, 0, min_time));
  const char *names[3] = {"adj_atomic", "adj_private", "adj_gather"};
  for (strategy = 0; strategy < 3; strategy++)
    printf("TIME %s %.9g\n", names[strategy], hb_time(run_adj, 0, min_time));
  printf("STATUS %s\n", hb_failures ? "fail" : "ok");
  return hb_failures != 0;
}
