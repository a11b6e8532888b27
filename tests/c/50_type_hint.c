// OPT: O0 O2
// Enzyme-style type hints: `shuffle` only moves untyped bytes (see
// tests/errors/cannot_deduce_type.c, which is rejected); `__enzyme_double(p)` says the
// memory holds doubles, and the derivative goes through. Oracle: the function is
// a[i] <- b[i] <- a[i] followed by y = sum a[i]^2 * w[i], so dy/da = 2 a w exactly.
#include "fz_test.h"
extern void __enzyme_double(void *);

__attribute__((noinline)) void shuffle(void *a, void *b, size_t n) {
  __enzyme_double(a);
  __enzyme_double(b);
  memcpy(b, a, n);
  memset(a, 0, n);
  memcpy(a, b, n);
}

double f(double *a, double *tmp, const double *w, int n) {
  shuffle(a, tmp, (size_t)n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i] * w[i];
  return s;
}

int main(void) {
  fz_seed(50);
  enum { N = 9 };
  double a[N], t[N], dt[N], w[N], da[N], want[N];
  fz_fill(a, N, -1, 1);
  fz_fill(w, N, 0.5, 2);
  fz_zero(da, N);
  fz_zero(dt, N);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, t, dt, enzyme_const, w, enzyme_const, N);
  for (int i = 0; i < N; i++) want[i] = 2 * a[i] * w[i];
  fz_check_arr("da", da, want, N, 1e-12);
  for (int i = 0; i < N; i++) fz_check("dtmp zero", dt[i], 0.0, 0.0);
  return fz_finish();
}
