// OPT: O0 O1 O2 O3
// VARIANTS: all
// Automatic checkpointing by budget (checkpoint/auto.rs): an explicit time stepper written
// as a plain loop in the differentiated function (state in two arguments, an active
// scalar, a periodic stencil with a branch per boundary). The gradient is computed
// without FERROZYME_TAPE_BUDGET (the loop is taped), with a budget of 1 byte (Revolve
// with one slot) and with a budget of 4 KB, for n = 0, 1, 2, 7, 60 steps. Oracles:
// central finite differences of the loss in k and in two state components, and the
// unbudgeted gradient for the budgeted ones; the state after every gradient must equal
// the primal's. Where the loop ran checkpointed (the driver's counter; optimized builds
// through ferrozyme cc and the plugin — the Ref build differentiates before the loop
// passes and keeps the loop taped, as -O0 does) the memory effect must show: under the
// 1-byte budget the peak tape (__ferrozyme_tape_stats) is below a tenth of the taped
// gradient's for n = 60. tests/filetests/auto_checkpoint_candidate.ll and
// crates/ferrozyme-cli/tests/auto_checkpoint.rs pin that such a loop is a candidate.
#include "fz_test.h"
#include <stdlib.h>

#define M 12

extern long long __ferrozyme_tape_stats[2] __attribute__((weak));
/* How many loops the driver ran checkpointed (checkpoint/driver.c). */
extern int64_t __fz_ckpt_auto_checkpointed_loops __attribute__((weak));
static int64_t checkpointed(void) {
  return &__fz_ckpt_auto_checkpointed_loops ? __fz_ckpt_auto_checkpointed_loops : 0;
}

__attribute__((noinline)) double ode(double *x, double *tmp, int m, double k, long nsteps) {
  for (long t = 0; t < nsteps; t++) {
    for (int i = 0; i < m; i++) {
      double r = x[i + 1 < m ? i + 1 : 0];
      double lap = r - 2 * x[i] + x[i > 0 ? i - 1 : m - 1];
      tmp[i] = x[i] + 0.05 * (k * lap + sin(x[i]) * r);
    }
    for (int i = 0; i < m; i++)
      x[i] = tmp[i];
  }
  double s = 0;
  for (int i = 0; i < m; i++)
    s += x[i] * x[i] * (1 + 0.1 * i);
  return s;
}

static void init(double *x) {
  for (int i = 0; i < M; i++)
    x[i] = 0.4 + 0.3 * sin(1.7 * i);
}

struct ctx {
  double x[M], k;
  long n;
};
static double eval(void *p) {
  struct ctx *c = p;
  double x[M], tmp[M];
  for (int i = 0; i < M; i++)
    x[i] = c->x[i];
  return ode(x, tmp, M, c->k, c->n);
}

/* One gradient under `budget` (NULL: unset): dk, dx and the state after it. */
static long long grad(const char *budget, long n, double k, double *dk, double *dx,
                      double *xafter) {
  double x[M], tmp[M], dtmp[M];
  init(x);
  for (int i = 0; i < M; i++)
    dx[i] = dtmp[i] = 0;
  if (budget)
    setenv("FERROZYME_TAPE_BUDGET", budget, 1);
  else
    unsetenv("FERROZYME_TAPE_BUDGET");
  if (__ferrozyme_tape_stats)
    __ferrozyme_tape_stats[0] = __ferrozyme_tape_stats[1] = 0;
  *dk = __enzyme_autodiff((void *)ode, enzyme_dup, x, dx, enzyme_dup, tmp, dtmp,
                          enzyme_const, M, enzyme_out, k, enzyme_const, n);
  unsetenv("FERROZYME_TAPE_BUDGET");
  for (int i = 0; i < M; i++)
    xafter[i] = x[i];
  return __ferrozyme_tape_stats ? __ferrozyme_tape_stats[1] : -1;
}

int main(void) {
  const long ns[] = {0, 1, 2, 7, 60};
  const double k = 0.7;
  for (unsigned q = 0; q < sizeof ns / sizeof *ns; q++) {
    long n = ns[q];
    char what[96];
    double dk0, dx0[M], x0[M], primal[M], tmp[M];
    long long taped = grad(NULL, n, k, &dk0, dx0, x0);
    init(primal);
    ode(primal, tmp, M, k, n);
    snprintf(what, sizeof what, "n=%ld taped: state after the gradient", n);
    fz_check_arr(what, x0, primal, M, 1e-14);
    /* Finite differences. */
    struct ctx c;
    init(c.x);
    c.k = k;
    c.n = n;
    snprintf(what, sizeof what, "n=%ld taped: d/dk against finite differences", n);
    fz_check(what, dk0, fz_fd_ptr(eval, &c, &c.k), 1e-6);
    for (int i = 0; i < M; i += 5) {
      snprintf(what, sizeof what, "n=%ld taped: d/dx[%d] against finite differences", n, i);
      fz_check(what, dx0[i], fz_fd_ptr(eval, &c, &c.x[i]), 1e-6);
    }
    const char *budgets[] = {"1", "4096"};
    for (int b = 0; b < 2; b++) {
      double dk, dx[M], x[M];
      int64_t before = checkpointed();
      long long peak = grad(budgets[b], n, k, &dk, dx, x);
      snprintf(what, sizeof what, "n=%ld budget %s: d/dk against the taped gradient", n,
               budgets[b]);
      fz_check(what, dk, dk0, 1e-12);
      snprintf(what, sizeof what, "n=%ld budget %s: d/dx against the taped gradient", n,
               budgets[b]);
      fz_check_arr(what, dx, dx0, M, 1e-12);
      snprintf(what, sizeof what, "n=%ld budget %s: state after the gradient", n, budgets[b]);
      fz_check_arr(what, x, primal, M, 1e-14);
      /* Checkpointed (optimized builds through ferrozyme cc and the plugin; the Ref
       * build differentiates before the loop passes and keeps the loop taped): the peak
       * tape must show it. */
      if (n == 60 && b == 0 && __ferrozyme_tape_stats && checkpointed() > before) {
        snprintf(what, sizeof what, "n=60 budget 1: peak tape %lld of the taped %lld", peak,
                 taped);
        fz_check(what, peak < taped / 10 ? 1.0 : 0.0, 1.0, 0);
      }
    }
  }
  return fz_finish();
}
