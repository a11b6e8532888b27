// OPT: O0 O2 O3
// VARIANTS: all
// Automatic checkpointing by budget (checkpoint/auto.rs) of a time loop whose body calls
// a stepper per step: a leapfrog-like update of positions u and velocities v (two
// arguments of the differentiated function, written only inside the noinline callee,
// which keeps a local scratch array), two callee calls per step (half steps) and an
// active scalar (the force constant). Gradients without a budget, with a 1-byte budget
// and with a 10 KB budget, n = 1, 2, 7, 50; oracles: central finite differences and the
// unbudgeted gradient; state after the gradient equal to the primal's; where the loop ran
// checkpointed (the driver's counter: not at -O0 or in the Ref build) the peak tape under
// the 1-byte budget is below a tenth of the taped gradient's.
#include "fz_test.h"
#include <stdlib.h>

#define M 10

extern long long __ferrozyme_tape_stats[2] __attribute__((weak));
/* How many loops the driver ran checkpointed (checkpoint/driver.c). */
extern int64_t __fz_ckpt_auto_checkpointed_loops __attribute__((weak));
static int64_t checkpointed(void) {
  return &__fz_ckpt_auto_checkpointed_loops ? __fz_ckpt_auto_checkpointed_loops : 0;
}

__attribute__((noinline)) static void half_step(double *u, double *v, int m, double c,
                                                double h) {
  double f[64];
  for (int i = 0; i < m; i++) {
    double l = u[(i + m - 1) % m], r = u[(i + 1) % m];
    f[i] = c * (l - 2 * u[i] + r) - 0.1 * sin(u[i]);
  }
  for (int i = 0; i < m; i++) {
    v[i] += h * f[i];
    u[i] += h * v[i];
  }
}

__attribute__((noinline)) double sim(double *u, double *v, int m, double c, long nsteps) {
  for (long t = 0; t < nsteps; t++) {
    half_step(u, v, m, c, 0.02);
    half_step(u, v, m, c * 1.1, 0.03);
  }
  double e = 0;
  for (int i = 0; i < m; i++)
    e += 0.5 * v[i] * v[i] + cos(u[i]);
  return e;
}

static void init(double *u, double *v) {
  for (int i = 0; i < M; i++) {
    u[i] = 0.3 * sin(0.9 * i + 0.2);
    v[i] = 0.1 * cos(1.3 * i);
  }
}

struct ctx {
  double u[M], v[M], c;
  long n;
};
static double eval(void *p) {
  struct ctx *x = p;
  double u[M], v[M];
  for (int i = 0; i < M; i++) {
    u[i] = x->u[i];
    v[i] = x->v[i];
  }
  return sim(u, v, M, x->c, x->n);
}

static long long grad(const char *budget, long n, double c, double *dc, double *du,
                      double *dv, double *uafter, double *vafter) {
  double u[M], v[M];
  init(u, v);
  for (int i = 0; i < M; i++)
    du[i] = dv[i] = 0;
  if (budget)
    setenv("FERROZYME_TAPE_BUDGET", budget, 1);
  else
    unsetenv("FERROZYME_TAPE_BUDGET");
  if (__ferrozyme_tape_stats)
    __ferrozyme_tape_stats[0] = __ferrozyme_tape_stats[1] = 0;
  *dc = __enzyme_autodiff((void *)sim, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const,
                          M, enzyme_out, c, enzyme_const, n);
  unsetenv("FERROZYME_TAPE_BUDGET");
  for (int i = 0; i < M; i++) {
    uafter[i] = u[i];
    vafter[i] = v[i];
  }
  return __ferrozyme_tape_stats ? __ferrozyme_tape_stats[1] : -1;
}

int main(void) {
  const long ns[] = {1, 2, 7, 50};
  const double c = 0.8;
  for (unsigned q = 0; q < sizeof ns / sizeof *ns; q++) {
    long n = ns[q];
    char what[112];
    double dc0, du0[M], dv0[M], u0[M], v0[M], pu[M], pv[M];
    long long taped = grad(NULL, n, c, &dc0, du0, dv0, u0, v0);
    init(pu, pv);
    sim(pu, pv, M, c, n);
    snprintf(what, sizeof what, "n=%ld taped: state after the gradient (u)", n);
    fz_check_arr(what, u0, pu, M, 1e-14);
    struct ctx x;
    init(x.u, x.v);
    x.c = c;
    x.n = n;
    snprintf(what, sizeof what, "n=%ld taped: d/dc against finite differences", n);
    fz_check(what, dc0, fz_fd_ptr(eval, &x, &x.c), 1e-6);
    for (int i = 0; i < M; i += 3) {
      snprintf(what, sizeof what, "n=%ld taped: d/du[%d] against finite differences", n, i);
      fz_check(what, du0[i], fz_fd_ptr(eval, &x, &x.u[i]), 1e-6);
      snprintf(what, sizeof what, "n=%ld taped: d/dv[%d] against finite differences", n, i);
      fz_check(what, dv0[i], fz_fd_ptr(eval, &x, &x.v[i]), 1e-6);
    }
    const char *budgets[] = {"1", "10240"};
    for (int b = 0; b < 2; b++) {
      double dc, du[M], dv[M], ua[M], va[M];
      int64_t before = checkpointed();
      long long peak = grad(budgets[b], n, c, &dc, du, dv, ua, va);
      snprintf(what, sizeof what, "n=%ld budget %s: d/dc against the taped gradient", n,
               budgets[b]);
      fz_check(what, dc, dc0, 1e-12);
      snprintf(what, sizeof what, "n=%ld budget %s: d/du against the taped gradient", n,
               budgets[b]);
      fz_check_arr(what, du, du0, M, 1e-12);
      snprintf(what, sizeof what, "n=%ld budget %s: d/dv against the taped gradient", n,
               budgets[b]);
      fz_check_arr(what, dv, dv0, M, 1e-12);
      snprintf(what, sizeof what, "n=%ld budget %s: state after the gradient", n, budgets[b]);
      fz_check_arr(what, ua, pu, M, 1e-14);
      fz_check_arr(what, va, pv, M, 1e-14);
      /* Checkpointed (optimized builds through ferrozyme cc and the plugin; the Ref
       * build differentiates before the loop passes and keeps the loop taped): the peak
       * tape must show it. */
      if (n == 50 && b == 0 && __ferrozyme_tape_stats && checkpointed() > before) {
        snprintf(what, sizeof what, "n=50 budget 1: peak tape %lld of the taped %lld", peak,
                 taped);
        fz_check(what, peak < taped / 10 ? 1.0 : 0.0, 1.0, 0);
      }
    }
  }
  return fz_finish();
}
