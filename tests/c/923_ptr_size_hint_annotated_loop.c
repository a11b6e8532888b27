// OPT: O0 O1 O2 O3
// CFLAGS: -std=gnu2x -Wno-unknown-attributes -Wno-ignored-attributes
// Enzyme's checkpointing annotations on a time loop whose state lives behind a pointer
// argument, with `__enzyme_ptr_size_hint` telling Enzyme how far that pointer reaches (how
// Enzyme's users annotate such loops). The loop runs checkpointed (binomial, 3 slots;
// checkpoint/marked.rs: the hint bounds the snapshot region; the accumulator `acc` that
// -O1+ keeps in a register is moved to a stack slot). Checked: the primal is the unannotated loop's
// bit for bit (the hint also runs in code nobody differentiates), reverse mode equals the
// unannotated loop's gradient and central finite differences, forward mode equals
// reverse mode, for 0, 1, 5 and 16 steps.
#include <enzyme/checkpoint.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
void __enzyme_ptr_size_hint(void *, size_t, size_t);

#define N 5

static void advance(double *u, long i, double *acc) {
  double nxt[N];
  for (int k = 0; k < N; k++) {
    double left = u[(k + N - 1) % N], right = u[(k + 1) % N];
    nxt[k] = u[k] + 0.05 * (left - 2 * u[k] + right) - 0.01 * u[k] * u[k] * u[k] +
             0.002 * cos(0.3 * (double)i + u[k]);
  }
  for (int k = 0; k < N; k++)
    u[k] = nxt[k];
  *acc += u[0] * u[N - 1];
}

__attribute__((noinline)) static double hinted_loop(double *u, long n) {
  double acc = 0;
  __enzyme_ptr_size_hint(u, N * sizeof(double), 0);
  __attribute__((enzyme_checkpointing_enable("binomial", 3)))
  for (long i = 0; i < n; i++)
    advance(u, i, &acc);
  return acc;
}

__attribute__((noinline)) static double plain_loop(double *u, long n) {
  double acc = 0;
  for (long i = 0; i < n; i++)
    advance(u, i, &acc);
  return acc;
}

#define OBJECTIVE(NAME, LOOP)                                                          \
  __attribute__((noinline)) double NAME(const double *x, long n) {                     \
    double *u = malloc(N * sizeof(double));                                            \
    for (int k = 0; k < N; k++)                                                        \
      u[k] = x[k];                                                                     \
    double r = LOOP(u, n);                                                             \
    for (int k = 0; k < N; k++)                                                        \
      r += 0.5 * u[k] * u[k];                                                          \
    free(u);                                                                           \
    return r;                                                                          \
  }
OBJECTIVE(hinted, hinted_loop)
OBJECTIVE(plain, plain_loop)

static long cur_n;
static double evalx[N];
static double eval(void *p) {
  (void)p;
  return plain(evalx, cur_n);
}

int main(void) {
  long steps[] = {0, 1, 5, 16};
  for (int a = 0; a < 4; a++) {
    double x[N] = {0.4, -0.2, 0.9, 0.1, -0.6};
    char what[96];
    snprintf(what, sizeof what, "n=%ld: primal = unannotated loop's", steps[a]);
    fz_check(what, hinted(x, steps[a]), plain(x, steps[a]), 0);
    double want[N] = {0}, got[N] = {0};
    __enzyme_autodiff((void *)plain, enzyme_dup, x, want, enzyme_const, steps[a]);
    __enzyme_autodiff((void *)hinted, enzyme_dup, x, got, enzyme_const, steps[a]);
    snprintf(what, sizeof what, "n=%ld: gradient = unannotated loop's", steps[a]);
    fz_check_arr(what, got, want, N, 1e-12);
    cur_n = steps[a];
    for (int k = 0; k < N; k++) {
      memcpy(evalx, x, sizeof x);
      snprintf(what, sizeof what, "n=%ld: d/dx[%d] vs finite differences", steps[a], k);
      fz_check(what, got[k], fz_fd_ptr(eval, NULL, &evalx[k]), 1e-6);
      double dx[N] = {0};
      dx[k] = 1;
      double t = __enzyme_fwddiff((void *)hinted, enzyme_dup, x, dx, enzyme_const, steps[a]);
      snprintf(what, sizeof what, "n=%ld: forward d/dx[%d] = reverse", steps[a], k);
      fz_check(what, t, got[k], 1e-12);
    }
  }
  return fz_finish();
}
