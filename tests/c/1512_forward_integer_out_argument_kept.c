// OPT: O0 O1 O2 O3
// rust44: forward mode wrote an integer's zero tangent into an integer out-argument's
// shadow (a `long *count` beside the `enzyme_dup` buffer it counts): the caller's
// `tcount` read 0 after the call, where reverse mode leaves the shadow integer the
// user's (tests/c/1475's contract). Now forward mode leaves it too
// (`common/mirrored_ints.rs`, `keeps_users_integer`). Also a pointer-free record's
// count `{double v[4]; long n}` (the user's in both modes). Reverse mode: gradients
// against the formula and central differences; forward mode: the tangent against the
// dot product with the gradient and against the formula, the stored tangents by formula.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double v[4];
  long n;
} stack;

enum { M = 3 };

/* Pushes x_i^2 onto s while it has room, counting every step in *count;
   f = the sum of s's values. */
__attribute__((noinline)) double push(const double *x, stack *s, long *count) {
  for (int i = 0; i < M; i++) {
    if (s->n < 4) {
      s->v[s->n] = x[i] * x[i];
      s->n = s->n + 1;
    }
    *count = *count + 1;
  }
  double t = 0;
  for (long i = 0; i < s->n; i++) t += s->v[i];
  return t;
}

static double x[M], v0 = 0.2;
static double primal(void *c) {
  (void)c;
  stack s = {{v0}, 1};
  long count = 0;
  return push(x, &s, &count);
}

int main(void) {
  fz_seed(1512);
  double dir[M];
  for (int i = 0; i < M; i++) x[i] = fz_uniform(-1, 1), dir[i] = fz_uniform(-1, 1);

  double g[M] = {0};
  stack s = {{v0}, 1}, ds = {{0}, -7};
  long count = 0, dcount = 42;
  __enzyme_autodiff((void *)push, enzyme_dup, x, g, enzyme_dup, &s, &ds, enzyme_dup, &count,
                    &dcount);
  fz_check("primal count", count, M, 0);
  fz_check("record's count the user's", ds.n, -7, 0);
  fz_check("out-argument's shadow the user's", dcount, 42, 0);
  for (int i = 0; i < M; i++) {
    fz_check("d f / d x (analytic)", g[i], 2 * x[i], 1e-12);
    fz_check("d f / d x (FD)", g[i], fz_fd_ptr(primal, NULL, &x[i]), 1e-6);
  }
  fz_check("d f / d v[0] (analytic)", ds.v[0], 1, 1e-12);
  fz_check("d f / d v[0] (FD)", ds.v[0], fz_fd_ptr(primal, NULL, &v0), 1e-6);

  stack s2 = {{v0}, 1}, ts = {{0.5}, -7};
  long count2 = 0, tcount = 42;
  double t = __enzyme_fwddiff((void *)push, enzyme_dup, x, dir, enzyme_dup, &s2, &ts,
                              enzyme_dup, &count2, &tcount);
  double dot = 0.5 * ds.v[0], want = 0.5;
  for (int i = 0; i < M; i++) dot += g[i] * dir[i], want += 2 * x[i] * dir[i];
  fz_check("forward = <gradient, direction>", t, dot, 1e-10);
  fz_check("forward (analytic)", t, want, 1e-12);
  fz_check("forward: primal count", count2, M, 0);
  fz_check("forward: out-argument's shadow the user's", tcount, 42, 0);
  fz_check("forward: record's count the user's", ts.n, -7, 0);
  for (int i = 0; i < M; i++)
    fz_check("forward: stored tangent (analytic)", ts.v[1 + i], 2 * x[i] * dir[i], 1e-12);
  return fz_finish();
}
