// OPT: O0 O1 O2 O3
// Floats that travel through integers: copies through a `long` (memcpy into an
// integer, the classic type-punning idiom), a union, and a conditional swap through
// integer temporaries. Type analysis must see these integers carry doubles so their
// derivatives are not silently dropped. Oracles: analytic.
#include "fz_test.h"

__attribute__((noinline)) void swap_bits(double *a, double *b) {
  long ta, tb;
  memcpy(&ta, a, sizeof ta);
  memcpy(&tb, b, sizeof tb);
  memcpy(a, &tb, sizeof tb);
  memcpy(b, &ta, sizeof ta);
}

union pun { double d; long l; };

double f(double *x, int n) {
  // Sort pairs by swapping through integers, then a weighted sum.
  for (int i = 0; i + 1 < n; i += 2)
    if (x[i] > x[i + 1]) swap_bits(&x[i], &x[i + 1]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    union pun u;
    u.d = x[i];
    long bits = u.l;
    union pun v;
    v.l = bits;
    s += (i + 1) * v.d * v.d;
  }
  return s;
}

int main(void) {
  fz_seed(51);
  enum { N = 10 };
  double x[N], x0[N], dx[N];
  fz_fill(x0, N, -2, 2);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  // After the call x holds the sorted pairs; the derivative w.r.t. the ORIGINAL x0[j]
  // is 2 * (k+1) * x0[j], where k is the position x0[j] moved to.
  for (int i = 0; i + 1 < N; i += 2) {
    int lo = x0[i] <= x0[i + 1] ? i : i + 1, hi = lo == i ? i + 1 : i;
    fz_check("dx lo", dx[lo], 2.0 * (i + 1) * x0[lo], 1e-12);
    fz_check("dx hi", dx[hi], 2.0 * (i + 2) * x0[hi], 1e-12);
  }
  return fz_finish();
}
