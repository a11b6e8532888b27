// OPT: O0 O1 O2 O3
// CFLAGS: -std=gnu17
// Time loops over global state annotated with the GNU spelling
// __attribute__((enzyme_checkpoint("periodic", 4))), `#pragma enzyme checkpoint("store_all")`
// on the line before the loop, and Reactant's __attribute__((enzyme_checkpointing_enable))
// without arguments (the default schedule). Each runs checkpointed (checkpoint/marked.rs;
// at -O1 and above the global is promoted to a register across the loop, which the pass
// moves back to a stack slot the snapshots hold). Checked: primal bit for bit the
// unannotated loop's, gradient = the unannotated loop's (1e-12) and central finite
// differences, and the driver's counts: the loop ran checkpointed, every step was
// differentiated once, and the periodic schedule recomputed steps, for 0, 1, 3 and 24 steps.
#include <enzyme/checkpoint_schedule.h>
#include <enzyme/checkpoint.h>
#include "fz_test.h"

extern EnzymeCkptStats __fz_ckpt_marked_stats;
extern int64_t __fz_ckpt_marked_loops;

#define N 4
static double st[N];
static double g;

#define STEP(i)                                                                        \
  {                                                                                    \
    double t[N];                                                                       \
    for (int k = 0; k < N; k++)                                                        \
      t[k] = st[k] + 0.1 * st[(k + 1) % N] * g - 0.02 * st[k] * st[k] +                \
             0.01 * cos(st[k] + 0.1 * (double)(i));                                    \
    for (int k = 0; k < N; k++)                                                        \
      st[k] = t[k];                                                                    \
    g = 0.95 * g + 0.05 * st[0] * st[1];                                               \
  }

#define BEGIN                                                                          \
  for (int k = 0; k < N; k++)                                                          \
    st[k] = x[k];                                                                      \
  g = 0.5;
#define END                                                                            \
  double r = g;                                                                        \
  for (int k = 0; k < N; k++)                                                          \
    r += (1.0 + 0.5 * k) * st[k] * st[k];                                              \
  return r;

__attribute__((noinline)) double plain(const double *x, long n) {
  BEGIN for (long i = 0; i < n; i++) STEP(i) END
}
__attribute__((noinline)) double periodic(const double *x, long n) {
  BEGIN __attribute__((enzyme_checkpoint("periodic", 4))) for (long i = 0; i < n; i++)
      STEP(i) END
}
__attribute__((noinline)) double store_all(const double *x, long n) {
  BEGIN
#pragma enzyme checkpoint("store_all")
  for (long i = 0; i < n; i++)
    STEP(i)
  END
}
__attribute__((noinline)) double older(const double *x, long n) {
  BEGIN __attribute__((enzyme_checkpointing_enable)) for (long i = 0; i < n; i++) STEP(i) END
}

typedef double (*fn)(const double *, long);
static long cur_n;
static double evalx[N];
static double eval(void *p) {
  (void)p;
  return plain(evalx, cur_n);
}

int main(void) {
  long steps[] = {0, 1, 3, 24};
  fn fs[] = {periodic, store_all, older};
  const char *names[] = {"periodic", "store_all", "default"};
  for (int a = 0; a < 4; a++) {
    long n = steps[a];
    double x[N] = {0.3, 0.7, -0.4, 1.1}, want[N] = {0};
    __enzyme_autodiff((void *)plain, enzyme_dup, x, want, enzyme_const, n);
    for (int s = 0; s < 3; s++) {
      char what[128];
      snprintf(what, sizeof what, "%s n=%ld: primal = unannotated loop's", names[s], n);
      fz_check(what, fs[s](x, n), plain(x, n), 0);
      double got[N] = {0};
      int64_t ran = __fz_ckpt_marked_loops;
      memset(&__fz_ckpt_marked_stats, 0, sizeof __fz_ckpt_marked_stats);
      // (each function named at its own call: the hook needs the function itself)
      if (s == 0)
        __enzyme_autodiff((void *)periodic, enzyme_dup, x, got, enzyme_const, n);
      else if (s == 1)
        __enzyme_autodiff((void *)store_all, enzyme_dup, x, got, enzyme_const, n);
      else
        __enzyme_autodiff((void *)older, enzyme_dup, x, got, enzyme_const, n);
      snprintf(what, sizeof what, "%s n=%ld: gradient = unannotated loop's", names[s], n);
      fz_check_arr(what, got, want, N, 1e-12);
      if (n > 0) {
        snprintf(what, sizeof what, "%s n=%ld: ran checkpointed", names[s], n);
        fz_check(what, (double)(__fz_ckpt_marked_loops - ran), 1, 0);
        snprintf(what, sizeof what, "%s n=%ld: every step differentiated once", names[s], n);
        fz_check(what, (double)__fz_ckpt_marked_stats.taped_steps, (double)n, 0);
      }
      if (n == 24 && s == 0)
        fz_check("periodic n=24: steps recomputed",
                 (double)(__fz_ckpt_marked_stats.forward_steps > 0), 1, 0);
      cur_n = n;
      for (int k = 0; k < N; k++) {
        memcpy(evalx, x, sizeof x);
        snprintf(what, sizeof what, "%s n=%ld: d/dx[%d] vs finite differences", names[s], n,
                 k);
        fz_check(what, got[k], fz_fd_ptr(eval, NULL, &evalx[k]), 1e-6);
      }
    }
  }
  return fz_finish();
}
