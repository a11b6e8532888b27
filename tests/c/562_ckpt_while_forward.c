// OPT: O0 O2
// __enzyme_checkpoint_while (store-all by default and with EnzymeCkptStoreAll; forward
// mode), the
// default scheme of __enzyme_checkpoint_for under FERROZYME_TAPE_BUDGET, and forward mode
// through __enzyme_checkpoint_for. Steps with an integer argument (constant) and a float
// argument (active). Oracles: the gradient of the plain loop computed by the same program,
// central finite differences, and for forward mode the dot-product identity
// <J v, w> = <v, J^T w> against the plain loop's reverse gradient. The state after the
// gradient must be the primal's; every step is taped once (n = 1, 2, 7, 40 steps).
#include "fz_test.h"
#include <enzyme/checkpoint.h>

#define N 6

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static int wstep(int64_t i, double *u, int m, double c) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + c * cos(u[(k + 1) % N]) * 0.1 + 0.01 * (double)i;
  for (int k = 0; k < N; k++)
    u[k] = t[k];
  return i + 1 < m;
}

static double wloss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += sin(u[k]) * (k + 1);
  return s;
}

static double wplain(double *u, double c, int m) {
  int64_t i = 0;
  while (wstep(i++, u, m, c))
    ;
  return wloss(u);
}

static EnzymeCkptStats wstats;
static double wckpt(double *u, double c, int m) {
  EnzymeCkptConfig cfg = {1, 0, NULL, 0, &wstats};
  __enzyme_checkpoint_while((void *)wstep, enzyme_scheme, &EnzymeCkptStoreAll, &cfg,
                            enzyme_checkpoint_region, u, (int64_t)(N * sizeof(double)),
                            u, m, c);
  return wloss(u);
}

static double wckpt_default(double *u, double c, int m) {
  __enzyme_checkpoint_while((void *)wstep, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, m, c);
  return wloss(u);
}

__attribute__((noinline)) static void fstep(int64_t i, double *u, double c) {
  for (int k = 0; k < N; k++)
    u[k] = u[k] + 0.05 * c * u[(k + 2) % N] * u[(k + 2) % N] - 0.001 * (double)i * u[k];
}

static double fplain(double *u, double c, int64_t n) {
  for (int64_t i = 3; i < 3 + n; i++)
    fstep(i, u, c);
  return wloss(u);
}

static double fckpt(double *u, double c, int64_t n) {
  __enzyme_checkpoint_for((void *)fstep, 3, n, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, c);
  return wloss(u);
}

static void init(double *u) {
  for (int k = 0; k < N; k++)
    u[k] = 0.3 + 0.2 * k;
}

typedef struct {
  int m;
  double c;
  int64_t n;
} Ctx;
static double xu[N];
static double weval(void *p) {
  Ctx *x = (Ctx *)p;
  double u[N];
  memcpy(u, xu, sizeof u);
  return wckpt_default(u, x->c, x->m);
}

int main(void) {
  int ms[] = {1, 2, 7, 40};
  for (int t = 0; t < 4; t++) {
    int m = ms[t];
    double u0[N], u[N], du_ref[N] = {0}, dc_ref, uref[N];
    init(u0);
    memcpy(u, u0, sizeof u);
    dc_ref = __enzyme_autodiff((void *)wplain, enzyme_dup, u, du_ref, enzyme_out, 0.7,
                               enzyme_const, m);
    memcpy(uref, u, sizeof u);
    for (int variant = 0; variant < 2; variant++) {
      double du[N] = {0}, dc;
      memcpy(u, u0, sizeof u);
      memset(&wstats, 0, sizeof wstats);
      dc = __enzyme_autodiff(variant ? (void *)wckpt_default : (void *)wckpt, enzyme_dup,
                             u, du, enzyme_out, 0.7, enzyme_const, m);
      char what[96];
      snprintf(what, sizeof what, "while m=%d %s: du = plain loop's", m,
               variant ? "default" : "store_all");
      fz_check_arr(what, du, du_ref, N, 1e-10);
      fz_check("  dc = plain loop's", dc, dc_ref, 1e-10);
      fz_check("  state after the gradient = primal's", memcmp(u, uref, sizeof u), 0, 0);
      if (!variant)
        fz_check("  taped steps = steps", (double)wstats.taped_steps, m, 0);
    }
    // finite differences of the checkpointed primal
    Ctx x = {m, 0.7, 0};
    memcpy(xu, u0, sizeof u0);
    fz_check("while: d/du0 vs finite differences", du_ref[0], fz_fd_ptr(weval, &x, &xu[0]), 1e-6);
    fz_check("while: d/dc vs finite differences", dc_ref, fz_fd_ptr(weval, &x, &x.c), 1e-6);
    // forward mode through the while loop: <J v, 1> = <v, J^T 1>.
    {
      double v[N], vc = -0.2, dot = vc * dc_ref;
      for (int k = 0; k < N; k++) {
        v[k] = 0.05 * k - 0.1;
        dot += v[k] * du_ref[k];
      }
      memcpy(u, u0, sizeof u);
      double jv = __enzyme_fwddiff((void *)wckpt_default, enzyme_dup, u, v, enzyme_dup,
                                   0.7, vc, enzyme_const, m);
      fz_check("while forward mode: <J v, 1> = <v, J^T 1>", jv, dot, 1e-10);
    }
  }
  // for loops: the default scheme under several FERROZYME_TAPE_BUDGET values, and
  // forward mode.
  int64_t ns[] = {1, 2, 7, 40};
  const char *budgets[] = {NULL, "1", "96", "100000"};
  for (int t = 0; t < 4; t++) {
    int64_t n = ns[t];
    double u0[N], u[N], du_ref[N] = {0}, dc_ref;
    init(u0);
    memcpy(u, u0, sizeof u);
    dc_ref = __enzyme_autodiff((void *)fplain, enzyme_dup, u, du_ref, enzyme_out, 0.4,
                               enzyme_const, n);
    for (int b = 0; b < 4; b++) {
      double du[N] = {0}, dc;
      if (budgets[b])
        setenv("FERROZYME_TAPE_BUDGET", budgets[b], 1);
      else
        unsetenv("FERROZYME_TAPE_BUDGET");
      memcpy(u, u0, sizeof u);
      dc = __enzyme_autodiff((void *)fckpt, enzyme_dup, u, du, enzyme_out, 0.4,
                             enzyme_const, n);
      char what[96];
      snprintf(what, sizeof what, "for n=%lld budget=%s: du = plain loop's", (long long)n,
               budgets[b] ? budgets[b] : "sqrt");
      fz_check_arr(what, du, du_ref, N, 1e-10);
      fz_check("  dc = plain loop's", dc, dc_ref, 1e-10);
    }
    // forward mode: <J v, w> with w = 1 (scalar loss) against <v, grad>.
    double v[N], vc = 0.3, dot = vc * dc_ref;
    for (int k = 0; k < N; k++) {
      v[k] = 0.1 * (k + 1) - 0.25;
      dot += v[k] * du_ref[k];
    }
    memcpy(u, u0, sizeof u);
    double vt[N];
    memcpy(vt, v, sizeof v);
    double jv = __enzyme_fwddiff((void *)fckpt, enzyme_dup, u, vt, enzyme_dup, 0.4, vc,
                                 enzyme_const, n);
    fz_check("forward mode: <J v, 1> = <v, J^T 1>", jv, dot, 1e-10);
  }
  // n < 0: no step, as the plain loop.
  {
    double u0[N], u[N], du[N] = {0}, du_ref[N] = {0};
    init(u0);
    memcpy(u, u0, sizeof u);
    double dc_ref = __enzyme_autodiff((void *)fplain, enzyme_dup, u, du_ref, enzyme_out,
                                      0.4, enzyme_const, (int64_t)-2);
    memcpy(u, u0, sizeof u);
    double dc = __enzyme_autodiff((void *)fckpt, enzyme_dup, u, du, enzyme_out, 0.4,
                                  enzyme_const, (int64_t)-2);
    fz_check_arr("for n=-2: du = plain loop's", du, du_ref, N, 1e-12);
    fz_check("for n=-2: dc = plain loop's", dc, dc_ref, 1e-12);
  }
  return fz_finish();
}
