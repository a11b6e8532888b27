// OPT: O0 O2
// CFLAGS: -std=gnu2x -Wno-unknown-attributes -Wno-unknown-pragmas -Wno-ignored-attributes
// Loops annotated for checkpointing as Enzyme's users write them
// ([[enzyme_checkpointing_enable("binomial", 2)]], the GNU spelling
// __attribute__((enzyme_checkpointing_enable("regular", 3))), #pragma enzyme checkpoint).
// The clang plugin (loaded by `ferrozyme cc`) inserts __enzyme_set_checkpointing and the
// pass runs each loop checkpointed (checkpoint/marked.rs; at -O2 the global `g` lives in a
// register across the loop and is moved back to a stack slot the snapshots hold). Before,
// the annotations were ignored and the loops taped plainly. Checked against the
// unannotated loop's gradient and central finite differences, n = 0, 1, 2, 7, 20.
#include "fz_test.h"

#define N 4
static double g;

#define BODY                                                                           \
  {                                                                                    \
    double t[N];                                                                       \
    for (int k = 0; k < N; k++)                                                        \
      t[k] = u[k] + 0.1 * u[(k + 1) % N] * g + 0.01 * sin(u[k] + 0.1 * (double)i);     \
    for (int k = 0; k < N; k++)                                                        \
      u[k] = t[k];                                                                     \
    g = 0.9 * g + 0.1 * u[0];                                                          \
  }

#define RUN(NAME, ATTR)                                                                \
  __attribute__((noinline)) double NAME(const double *x, long n) {                     \
    double u[N];                                                                       \
    for (int k = 0; k < N; k++)                                                        \
      u[k] = x[k];                                                                     \
    g = 0.5;                                                                           \
    ATTR for (long i = 0; i < n; i++) BODY double r = g;                               \
    for (int k = 0; k < N; k++)                                                        \
      r += u[k] * u[k];                                                                \
    return r;                                                                          \
  }

RUN(plain, )
RUN(c23, [[enzyme_checkpointing_enable("binomial", 2)]])
RUN(gnu, __attribute__((enzyme_checkpointing_enable("regular", 3))))

__attribute__((noinline)) double pragma(const double *x, long n) {
  double u[N];
  for (int k = 0; k < N; k++)
    u[k] = x[k];
  g = 0.5;
#pragma enzyme checkpoint
  for (long i = 0; i < n; i++)
    BODY
  double r = g;
  for (int k = 0; k < N; k++)
    r += u[k] * u[k];
  return r;
}

typedef double (*fn)(const double *, long);
static fn cur;
static long cur_n;
static double evalx[N];
static double eval(void *p) {
  (void)p;
  return cur(evalx, cur_n);
}

int main(void) {
  long steps[] = {0, 1, 2, 7, 20};
  fn fs[] = {c23, gnu, pragma};
  const char *names[] = {"[[enzyme_checkpointing_enable]]", "__attribute__", "#pragma"};
  for (int a = 0; a < 5; a++) {
    double x[N] = {0.3, 0.7, 1.1, 1.5}, want[N] = {0};
    __enzyme_autodiff((void *)plain, enzyme_dup, x, want, enzyme_const, steps[a]);
    for (int s = 0; s < 3; s++) {
      double got[N] = {0};
      // (each function named at its own call: the hook needs the function itself)
      if (s == 0)
        __enzyme_autodiff((void *)c23, enzyme_dup, x, got, enzyme_const, steps[a]);
      else if (s == 1)
        __enzyme_autodiff((void *)gnu, enzyme_dup, x, got, enzyme_const, steps[a]);
      else
        __enzyme_autodiff((void *)pragma, enzyme_dup, x, got, enzyme_const, steps[a]);
      char what[96];
      snprintf(what, sizeof what, "%s n=%ld: gradient = unannotated loop's", names[s],
               steps[a]);
      fz_check_arr(what, got, want, N, 1e-12);
      cur = fs[s];
      cur_n = steps[a];
      memcpy(evalx, x, sizeof x);
      fz_check("  vs finite differences", got[1], fz_fd_ptr(eval, NULL, &evalx[1]), 1e-6);
    }
  }
  return fz_finish();
}
