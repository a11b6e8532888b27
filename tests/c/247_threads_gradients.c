// OPT: O0 O2
// ARGS: -lpthread
// Reverse mode from 4 POSIX threads at once (the tape-stack buffer pool and
// the split-tape arena are per thread). Each thread computes, 16 times:
// (a) the gradient w.r.t. (x0, p) of a 20000-80000-step nonlinear
//     recurrence with sin/exp (at least 8 bytes cached per step, so the tape
//     stack exceeds 64 KiB and its buffer goes to the pool; lengths change
//     between calls so pooled buffers are taken, grown and put back);
// (b) the gradient of a recursive divide-and-conquer product with a loop
//     at each leaf (tape per recursive call: the arena), n = 5..96.
// Inputs differ per thread (own PRNG). Oracles: (a) hand-written tangent
// propagation of the recurrence, (b) the closed form
// d/dx_j [prod_i (1 + sin x_i) - 1] = cos x_j prod_{i!=j} (1 + sin x_i);
// both validated against FD of the primal in the main thread. Threads
// count their checks and keep the worst error; the main thread reports.
#include "fz_test.h"
#include <pthread.h>

#define NTHREADS 4
#define CALLS 16
#define RMAX 96
#define LEAF 4

/* (a) long recurrence: returns h * sum_i u_i^2 + u_n */
double traj(double x0, double p, int n) {
  double h = 1.0 / (double)n, u = x0, s = 0.0;
  for (int i = 0; i < n; i++) {
    u = u + h * (sin(p * u) - 0.3 * u + 0.2 * exp(-u * u));
    s += h * u * u;
  }
  return s + u;
}

/* (b) recursive product: rprod(x, lo, hi) = prod_{lo<=i<hi} (1 + sin x_i) - 1 */
double rprod(const double *x, int lo, int hi) {
  if (hi - lo <= LEAF) {
    double q = 1.0;
    for (int i = lo; i < hi; i++) q *= 1.0 + sin(x[i]);
    return q - 1.0;
  }
  int mid = (lo + hi) / 2;
  double a = rprod(x, lo, mid), b = rprod(x, mid, hi);
  return a * b + a + b;
}

/* ---- oracles ------------------------------------------------------------ */
static void traj_tangent(double x0, double p, int n, double *gx, double *gp) {
  double h = 1.0 / (double)n, u = x0, ux = 1.0, up = 0.0, sx = 0.0, sp = 0.0;
  for (int i = 0; i < n; i++) {
    double e = exp(-u * u);
    double du = 1.0 + h * (p * cos(p * u) - 0.3 - 0.4 * u * e);
    double dp = h * u * cos(p * u);
    up = du * up + dp;
    ux = du * ux;
    u = u + h * (sin(p * u) - 0.3 * u + 0.2 * e);
    sx += 2.0 * h * u * ux;
    sp += 2.0 * h * u * up;
  }
  *gx = sx + ux;
  *gp = sp + up;
}

static void rprod_grad(const double *x, int n, double *g) {
  for (int j = 0; j < n; j++) {
    double q = cos(x[j]);
    for (int i = 0; i < n; i++)
      if (i != j) q *= 1.0 + sin(x[i]);
    g[j] = q;
  }
}

/* ---- per-thread work ------------------------------------------------------ */
struct worker {
  int id;
  uint64_t rng;
  int checks, bad;
  double worst_err, worst_got, worst_want; /* relative error of the worst check */
  char worst_what[64];
  long traj_steps;
};

static uint64_t w_rand(struct worker *w) {
  uint64_t x = w->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  w->rng = x;
  return x * 0x2545F4914F6CDD1Dull;
}
static double w_uniform(struct worker *w, double lo, double hi) {
  return lo + (hi - lo) * ((double)(w_rand(w) >> 11) * (1.0 / 9007199254740992.0));
}

static void w_check(struct worker *w, const char *what, double got, double want, double tol) {
  double e = fabs(got - want) / fz_max3(1.0, fabs(got), fabs(want));
  if (e != e) e = INFINITY;
  w->checks++;
  if (!(e <= tol)) {
    w->bad++;
    if (w->bad <= 5) /* one printf call per line: lines of threads do not mix */
      printf("MISMATCH thread %d %s: got=%.17g want=%.17g (tol %.1e)\n", w->id, what, got, want,
             tol);
  }
  if (e > w->worst_err || w->checks == 1) {
    w->worst_err = e, w->worst_got = got, w->worst_want = want;
    snprintf(w->worst_what, sizeof w->worst_what, "%s", what);
  }
}

static void *work(void *arg) {
  struct worker *w = arg;
  char what[64];
  double x[RMAX], dx[RMAX], g[RMAX];
  for (int c = 0; c < CALLS; c++) {
    /* (a) lengths 20000..80000, different for every call and thread */
    int n = 20000 + (int)(w_rand(w) % 60001);
    double x0 = w_uniform(w, -1.0, 1.0), p = w_uniform(w, 0.5, 2.0) + 0.1 * w->id;
    fz_grad2 d = __enzyme_autodiff2((void *)traj, x0, p, enzyme_const, n);
    double gx, gp;
    traj_tangent(x0, p, n, &gx, &gp);
    snprintf(what, sizeof what, "call %d dtraj/dx0 (n=%d)", c, n);
    w_check(w, what, d.d0, gx, 1e-9);
    snprintf(what, sizeof what, "call %d dtraj/dp (n=%d)", c, n);
    w_check(w, what, d.d1, gp, 1e-9);
    w->traj_steps += n;

    /* (b) recursion, n = 5..96 */
    int m = 5 + (int)(w_rand(w) % (RMAX - 4));
    for (int i = 0; i < m; i++) x[i] = w_uniform(w, -0.3, 0.3), dx[i] = 0.0;
    __enzyme_autodiff((void *)rprod, enzyme_dup, x, dx, enzyme_const, 0, enzyme_const, m);
    rprod_grad(x, m, g);
    for (int i = 0; i < m; i++) {
      snprintf(what, sizeof what, "call %d drprod/dx[%d] (n=%d)", c, i, m);
      w_check(w, what, dx[i], g[i], 1e-12);
    }
  }
  return NULL;
}

/* ---- oracle validation (main thread, before the workers) ------------------ */
static double TX0, TP, RX[RMAX];
static int TN, RN;
static double e_tx(void *c) { (void)c; return traj(TX0, TP, TN); }
static double e_r(void *c) { (void)c; return rprod(RX, 0, RN); }

int main(void) {
  fz_seed(247);
  for (int t = 0; t < 2; t++) {
    TX0 = fz_uniform(-1, 1), TP = fz_uniform(0.5, 2.4), TN = t ? 50000 : 20000;
    double gx, gp;
    traj_tangent(TX0, TP, TN, &gx, &gp);
    fz_check("oracle dtraj/dx0 vs fd", gx, fz_fd5_ptr(e_tx, NULL, &TX0), 1e-8);
    fz_check("oracle dtraj/dp vs fd", gp, fz_fd5_ptr(e_tx, NULL, &TP), 1e-8);
    RN = t ? RMAX : 7;
    double g[RMAX], fd[RMAX];
    fz_fill(RX, RN, -0.3, 0.3);
    rprod_grad(RX, RN, g);
    fz_fd_grad(e_r, NULL, RX, RN, fd);
    for (int i = 0; i < RN; i++)
      if (!fz_close(g[i], fd[i], 1e-6)) fz_check("oracle drprod/dx vs fd", g[i], fd[i], 1e-6);
    fz_check("oracle drprod/dx[0] vs fd", g[0], fd[0], 1e-6);
    fz_check("oracle drprod/dx[last] vs fd", g[RN - 1], fd[RN - 1], 1e-6);
  }

  static struct worker W[NTHREADS];
  pthread_t th[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) {
    W[t].id = t;
    W[t].rng = 0x9E3779B97F4A7C15ull * (uint64_t)(t + 1) ^ 247;
    if (pthread_create(&th[t], NULL, work, &W[t]) != 0) {
      printf("FAIL (pthread_create)\n");
      return 1;
    }
  }
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++) {
    char buf[160];
    printf("info: thread %d: %d checks, %d mismatches, %ld recurrence steps\n", t, W[t].checks,
           W[t].bad, W[t].traj_steps);
    snprintf(buf, sizeof buf, "thread %d worst: %s", t, W[t].worst_what);
    fz_check(buf, W[t].worst_got, W[t].worst_want,
             strstr(W[t].worst_what, "traj") ? 1e-9 : 1e-12);
    snprintf(buf, sizeof buf, "thread %d mismatches", t);
    fz_check(buf, (double)W[t].bad, 0.0, 0.0);
    snprintf(buf, sizeof buf, "thread %d ran every check", t);
    fz_check(buf, W[t].checks >= CALLS * 7 ? 1.0 : 0.0, 1.0, 0.0);
  }
  return fz_finish();
}
