// OPT: O0 O1 O2 O3
// Accumulators written the way code shared with threaded builds writes them, run on one
// thread inside the differentiated function: `__atomic_fetch_add` on a double (an
// `atomicrmw fadd`) with relaxed and seq_cst orders, an `_Atomic long` counter
// (inactive), `__atomic_load`/`__atomic_store` with acquire and release orders (C11
// `_Atomic double` with `+=` is a compare-exchange loop, refused with a clear message:
// `tests/errors/atomic_double_compound_assign.c`). Oracles: finite differences and the
// analytic gradient.
#include "fz_test.h"
#include <stdatomic.h>

#define N 6

double accumulate(const double *x, int n) {
  double sum = 0.0;
  double sq = 0.0;
  _Atomic long count = 0;
  double last = 0.0;
  for (int i = 0; i < n; i++) {
    __atomic_fetch_add(&sum, x[i] * x[i], __ATOMIC_RELAXED);
    __atomic_fetch_add(&sq, x[i] * (i + 1), __ATOMIC_SEQ_CST);
    atomic_fetch_add(&count, 1);
    double v3 = x[i] * 3.0;
    __atomic_store(&last, &v3, __ATOMIC_RELEASE);
  }
  double s, l;
  __atomic_load(&sum, &s, __ATOMIC_ACQUIRE);
  __atomic_load(&last, &l, __ATOMIC_ACQUIRE);
  return s + sq * l + (double)count;
}

static double X[N];
static double eval(void *ctx) { (void)ctx; return accumulate(X, N); }

int main(void) {
  fz_seed(732);
  fz_fill(X, N, -1, 1);
  double dx[N] = {0}, fd[N], want[N], lin = 0;
  __enzyme_autodiff((void *)accumulate, enzyme_dup, X, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) lin += X[i] * (i + 1);
  for (int i = 0; i < N; i++) want[i] = 2 * X[i] + (i + 1) * 3.0 * X[N - 1] + (i == N - 1 ? 3.0 * lin : 0);
  fz_fd_grad(eval, NULL, X, N, fd);
  fz_check_arr("dx analytic", dx, want, N, 1e-12);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
