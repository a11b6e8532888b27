// OPT: O0 O1 O2 O3
// ndarray's `&owned - &view` of 2-D arrays as C (front19; tests/rust-linalg): a helper
// builds a view {data, len} of the memory it is given into the caller's struct, the data
// pointer chosen by a phi (`len > 0 ? p + offset : NULL`, ndarray's
// `from_shape_impl`); it is called for a differentiable buffer and for an `enzyme_const`
// array. The constant array's view is its own shadow (runtime activity), and the
// subtraction's reverse sweep added the adjoint into it: the derivative overwrote the
// caller's constant input `c` (the gradient itself was right). The helper storing its
// parameter through a phi now counts as keeping it, so the caller passes checks on.
// Oracles: the gradient of |a - c|^2 is 2 (a - c); `c` is unchanged.
#include "fz_test.h"

enum { N = 5 };

typedef struct { double *data; long len; } view;

__attribute__((noinline)) void make_view(view *v, double *p, long len, long off) {
  v->data = len > 0 ? p + off : 0;
  v->len = len;
}

__attribute__((noinline)) void sub_assign(view *dst, const view *src) {
  for (long i = 0; i < dst->len; i++) dst->data[i] -= src->data[i];
}

double loss(const double *a, double *c, long n) {
  double *r = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) r[i] = a[i];
  view vr, vc;
  make_view(&vr, r, n, 0);
  make_view(&vc, c, n, 0);
  sub_assign(&vr, &vc);
  double s = 0;
  for (long i = 0; i < n; i++) s += r[i] * r[i];
  free(r);
  return s;
}

int main(void) {
  double a[N] = {1.0, 2.0, 0.5, -1.0, 3.0}, da[N] = {0};
  double c[N] = {0.3, -0.7, 1.1, 0.2, 0.1}, c0[N];
  for (int i = 0; i < N; i++) c0[i] = c[i];
  __enzyme_autodiff((void *)loss, enzyme_dup, a, da, enzyme_const, c, (long)N);
  double want[N];
  for (int i = 0; i < N; i++) want[i] = 2 * (a[i] - c0[i]);
  fz_check_arr("2 (a - c)", da, want, N, 1e-12);
  fz_check_arr("c unchanged", c, c0, N, 0);
  return fz_finish();
}
