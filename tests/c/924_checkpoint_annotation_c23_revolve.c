// OPT: O0 O1 O2 O3
// CFLAGS: -std=gnu23
// A time loop annotated with Enzyme's C23 spelling [[enzyme::checkpoint("revolve", 3)]],
// its state behind a pointer argument whose extent `__enzyme_ptr_size_hint` gives (the
// clang plugin, loaded by `ferrozyme cc`, puts __enzyme_set_checkpointing(REVOLVE, 3) at
// the top of the body; the pass outlines the loop and runs it with Revolve, 3 slots:
// checkpoint/marked.rs). Checked: the primal is the unannotated loop's bit for bit,
// the gradient equals the unannotated loop's (1e-12) and central finite differences,
// forward mode equals reverse mode, and the loop really ran checkpointed: the driver's
// counts show steps recomputed (more forward steps than a taped loop's zero) with at
// most 3 slots, for 0, 1, 5 and 40 steps.
#include <enzyme/checkpoint_schedule.h>
#include <enzyme/checkpoint.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
void __enzyme_ptr_size_hint(void *, size_t, size_t);
extern EnzymeCkptStats __fz_ckpt_marked_stats;
extern int64_t __fz_ckpt_marked_loops;

#define N 6

static void advance(double *u, long i) {
  double nxt[N];
  for (int k = 0; k < N; k++) {
    double left = u[(k + N - 1) % N], right = u[(k + 1) % N];
    nxt[k] = u[k] + 0.04 * (left - 2 * u[k] + right) - 0.02 * u[k] * u[k] * u[k] +
             0.003 * sin(0.2 * (double)i + u[k]);
  }
  for (int k = 0; k < N; k++)
    u[k] = nxt[k];
}

__attribute__((noinline)) static void marked_loop(double *u, long n) {
  __enzyme_ptr_size_hint(u, N * sizeof(double), 0);
  [[enzyme::checkpoint("revolve", 3)]] for (long i = 0; i < n; i++) advance(u, i);
}

__attribute__((noinline)) static void plain_loop(double *u, long n) {
  for (long i = 0; i < n; i++)
    advance(u, i);
}

#define OBJECTIVE(NAME, LOOP)                                                          \
  __attribute__((noinline)) double NAME(const double *x, long n) {                     \
    double *u = malloc(N * sizeof(double));                                            \
    for (int k = 0; k < N; k++)                                                        \
      u[k] = x[k];                                                                     \
    LOOP(u, n);                                                                        \
    double r = 0;                                                                      \
    for (int k = 0; k < N; k++)                                                        \
      r += (0.5 + k) * u[k] * u[k];                                                    \
    free(u);                                                                           \
    return r;                                                                          \
  }
OBJECTIVE(marked, marked_loop)
OBJECTIVE(plain, plain_loop)

static long cur_n;
static double evalx[N];
static double eval(void *p) {
  (void)p;
  return plain(evalx, cur_n);
}

int main(void) {
  long steps[] = {0, 1, 5, 40};
  for (int a = 0; a < 4; a++) {
    double x[N] = {0.4, -0.2, 0.9, 0.1, -0.6, 0.3};
    char what[96];
    snprintf(what, sizeof what, "n=%ld: primal = unannotated loop's", steps[a]);
    fz_check(what, marked(x, steps[a]), plain(x, steps[a]), 0);
    double want[N] = {0}, got[N] = {0};
    __enzyme_autodiff((void *)plain, enzyme_dup, x, want, enzyme_const, steps[a]);
    memset(&__fz_ckpt_marked_stats, 0, sizeof __fz_ckpt_marked_stats);
    int64_t ran = __fz_ckpt_marked_loops;
    __enzyme_autodiff((void *)marked, enzyme_dup, x, got, enzyme_const, steps[a]);
    snprintf(what, sizeof what, "n=%ld: gradient = unannotated loop's", steps[a]);
    fz_check_arr(what, got, want, N, 1e-12);
    // (with no step the optimized loop's guard skips it: nothing to run)
    if (steps[a] > 0) {
      snprintf(what, sizeof what, "n=%ld: the marked loop ran checkpointed", steps[a]);
      fz_check(what, (double)(__fz_ckpt_marked_loops - ran), 1, 0);
    }
    if (steps[a] == 40) {
      EnzymeCkptStats s = __fz_ckpt_marked_stats;
      fz_check("n=40: every step differentiated once", (double)s.taped_steps, 40, 0);
      fz_check("n=40: steps recomputed (> n - 1 forward steps)",
               (double)(s.forward_steps > 39), 1, 0);
      fz_check("n=40: at most 3 slots (the budget)", (double)(s.max_slots <= 3), 1, 0);
    }
    cur_n = steps[a];
    for (int k = 0; k < N; k++) {
      memcpy(evalx, x, sizeof x);
      snprintf(what, sizeof what, "n=%ld: d/dx[%d] vs finite differences", steps[a], k);
      fz_check(what, got[k], fz_fd_ptr(eval, NULL, &evalx[k]), 1e-6);
      double dx[N] = {0};
      dx[k] = 1;
      double t = __enzyme_fwddiff((void *)marked, enzyme_dup, x, dx, enzyme_const, steps[a]);
      snprintf(what, sizeof what, "n=%ld: forward d/dx[%d] = reverse", steps[a], k);
      fz_check(what, t, got[k], 1e-12);
    }
  }
  return fz_finish();
}
