// OPT: O0 O1 O2 O3
// GCC/Clang builtins and attributes that performance-minded C puts in hot code:
// `__builtin_expect` on branches, `__builtin_assume`, `__builtin_unreachable` after an
// exhaustive switch, `__builtin_prefetch`, `__builtin_fma`, `__builtin_sqrt`,
// `__builtin_copysign`, `__builtin_isnan`/`__builtin_isinf` guards, helpers marked
// `__attribute__((const))`, `pure`, `always_inline`, `cold` and `flatten`, and
// `__builtin_memcpy` of a small array. Oracle: finite differences and analytic values.
#include "fz_test.h"

__attribute__((const)) static double sq(double x) { return x * x; }
__attribute__((pure)) static double sum_sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = __builtin_fma(x[i], x[i], s);
  return s;
}
__attribute__((always_inline)) static inline double soft(double x) {
  return __builtin_expect(x > 20.0, 0) ? x : log1p(exp(x));
}
__attribute__((cold, noinline)) static double rare(double x) { return 0.5 * x; }

__attribute__((flatten)) double kernel(const double *x, int n, int mode) {
  __builtin_assume(n > 0 && n <= 16);
  double buf[16];
  __builtin_memcpy(buf, x, n * sizeof(double));
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    __builtin_prefetch(&buf[i + 4 < n ? i + 4 : i]);
    double v = buf[i];
    if (__builtin_isnan(v) || __builtin_isinf(v)) continue;
    switch ((i + mode) & 3) {
    case 0: s += sq(v) * 0.5; break;
    case 1: s += soft(v); break;
    case 2: s += __builtin_copysign(__builtin_sqrt(sq(v) + 1.0), v); break;
    case 3: s += __builtin_expect(v < -100.0, 0) ? rare(v) : v * sum_sq(x, i); break;
    default: __builtin_unreachable();
    }
  }
  return s + sum_sq(x, n) * 0.01;
}

#define N 9
static double X[N];
static double eval(void *ctx) { return kernel(X, N, *(int *)ctx); }

int main(void) {
  fz_seed(736);
  fz_fill(X, N, -2, 2);
  for (int mode = 0; mode < 2; mode++) {
    double dx[N] = {0}, fd[N];
    __enzyme_autodiff((void *)kernel, enzyme_dup, X, dx, enzyme_const, N, enzyme_const, mode);
    fz_fd_grad(eval, &mode, X, N, fd);
    fz_check_arr(mode ? "dkernel fd mode 1" : "dkernel fd mode 0", dx, fd, N, 1e-6);
  }
  return fz_finish();
}
