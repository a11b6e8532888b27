// OPT: O0 O1 O2 O3
// IGNORE-REF: cannot-deduce-type in `rev_long` ("an integer access to differentiable memory whose type is ambiguous (the value looks like Integer, the memory like Anything)"): before optimization the `long` temporary `t` is a stack slot, so the moves are not recognized as a swap (a clear refusal; the error names only `rev_long`)
// Doubles reversed in place through `long *` (a strict-aliasing violation: clang's `!tbaa`
// types the moves `long` while the same memory is read as `double`), then read back as
// doubles. The swap is differentiated as moved bytes (`untyped_swap`); the derivative's
// copies of the `long` accesses lose their `!tbaa` (`common/punned.rs`): before that, at
// -O1/-O2 the derivative inlined into `main` had GVN forward main's initial `double`
// stores across the `long` stores, so the primal factor a[0] was the value before the
// swap while its adjoint went where the swap moved it (gradient 6 5 4 3 2 57 instead of
// 36 30 24 18 12 62, silently). The same function with a `may_alias` integer type (what
// -fno-strict-aliasing gives every access) is checked alike.
// Oracles: the analytic gradient of S * a[n-1] with S = sum_i a[n-1-i] (i+1), central
// differences of the function called through a volatile pointer (not inlined, so not
// subject to the caller's strict-aliasing folds), forward mode against reverse (dot).
#include "fz_test.h"
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef long __attribute__((may_alias)) alias_long;

double rev_long(double *a, int n) {
  long *la = (long *)a;
  for (int i = 0; i < n / 2; i++) {
    long t = la[i];
    la[i] = la[n - 1 - i];
    la[n - 1 - i] = t;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1);
  return s * a[0];
}

double rev_may_alias(double *a, int n) {
  alias_long *la = (alias_long *)a;
  for (int i = 0; i < n / 2; i++) {
    alias_long t = la[i];
    la[i] = la[n - 1 - i];
    la[n - 1 - i] = t;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1);
  return s * a[0];
}

#define N 6
typedef double (*fn_t)(double *, int);

// d/da[j] of S * a[n-1], S = sum_i a[n-1-i] (i+1) = sum_j a[j] (n-j).
static void analytic(const double *x, double *g) {
  double s = 0;
  for (int j = 0; j < N; j++) s += x[j] * (N - j);
  for (int j = 0; j < N; j++) g[j] = (N - j) * x[N - 1] + (j == N - 1 ? s : 0.0);
}

static double call_copy(fn_t volatile f, const double *x) {
  double c[N];
  memcpy(c, x, sizeof c);
  return f(c, N);
}

// `f` is passed whole to the hooks (a known function), and through a volatile pointer
// to the finite differences.
#define CHECK(name, f, x0_)                                                              \
  do {                                                                                  \
    double x[N], a[N], da[N] = {0}, want[N], fd[N], v[N], dv[N];                        \
    memcpy(x, x0_, sizeof x);                                                           \
    analytic(x, want);                                                                  \
    memcpy(a, x, sizeof a);                                                             \
    __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, N);                   \
    fz_check_arr(name " analytic", da, want, N, 1e-12);                                 \
    for (int i = 0; i < N; i++) {                                                       \
      double h = 1e-6, xp[N], xm[N];                                                    \
      memcpy(xp, x, sizeof xp);                                                         \
      memcpy(xm, x, sizeof xm);                                                         \
      xp[i] += h;                                                                       \
      xm[i] -= h;                                                                       \
      fd[i] = (call_copy(f, xp) - call_copy(f, xm)) / (2 * h);                          \
    }                                                                                   \
    fz_check_arr(name " fd", da, fd, N, 1e-6);                                          \
    fz_fill(v, N, -1, 1);                                                               \
    memcpy(a, x, sizeof a);                                                             \
    memcpy(dv, v, sizeof dv);                                                           \
    double jv = __enzyme_fwddiff((void *)f, enzyme_dup, a, dv, enzyme_const, N);        \
    double dot = 0;                                                                     \
    for (int i = 0; i < N; i++) dot += da[i] * v[i];                                    \
    fz_check(name " forward . v", jv, dot, 1e-10);                                      \
  } while (0)

int main(void) {
  fz_seed(1463);
  // Constants stored just before the call: what GVN forwarded across the `long` moves.
  {
    double a[N] = {1, 2, 3, 4, 5, 6}, da[N] = {0}, want[N], x[N] = {1, 2, 3, 4, 5, 6};
    __enzyme_autodiff((void *)rev_long, enzyme_dup, a, da, enzyme_const, N);
    analytic(x, want);
    fz_check_arr("long constants", da, want, N, 1e-12);
    double b[N] = {1, 2, 3, 4, 5, 6}, db[N] = {0};
    __enzyme_autodiff((void *)rev_may_alias, enzyme_dup, b, db, enzyme_const, N);
    fz_check_arr("may_alias constants", db, want, N, 1e-12);
  }
  double x0[N];
  fz_fill(x0, N, -1.5, 1.5);
  CHECK("long", rev_long, x0);
  CHECK("may_alias", rev_may_alias, x0);
  return fz_finish();
}
