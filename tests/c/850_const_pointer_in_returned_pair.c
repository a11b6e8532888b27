// OPT: O0 O1 O2 O3
// ndarray's row-by-row matrix-vector product as C (front18; tests/rust-linalg's
// `lsq_views` crashed in debug builds): a helper returns a *pair* of pointers, the row
// of the constant matrix `a` and the slot of the differentiable result `r`
// (`OffsetTuple::stride_offset` of zipped views). The pair as a whole has a shadow, its
// first pointer has none: it used to get a null shadow, stored into the row view's
// shadow, which the reverse sweep of `dot` then added into (SIGSEGV). Now the first
// pointer is constant, and stored into the view it is its own shadow (runtime activity).
// At -O0 (a SIGSEGV until sweep19) the pair is built in a stack slot and returned by a
// load, its pointers read back from the parameters' slots: `extracted_returned_arg`
// follows both through the slots' stores.
// Oracle: the gradient of |A x - b|^2 is 2 A^T (A x - b).
#include "fz_test.h"

enum { M = 3, N = 2 };

typedef struct { const double *row; double *out; } pair;
typedef struct { const double *data; long len; } view;

__attribute__((noinline)) pair offset(const double *a, double *r, long i) {
  pair p = {a + i * N, r + i};
  return p;
}

__attribute__((noinline)) double dot(const view *u, const double *x) {
  double s = 0;
  for (long k = 0; k < u->len; k++) s += u->data[k] * x[k];
  return s;
}

double lsq(const double *a, const double *x, const double *b) {
  double *r = malloc(M * sizeof(double));
  for (long i = 0; i < M; i++) {
    pair p = offset(a, r, i);
    view u = {p.row, N};
    *p.out = dot(&u, x);
  }
  double s = 0;
  for (long i = 0; i < M; i++) s += (r[i] - b[i]) * (r[i] - b[i]);
  free(r);
  return s;
}

int main(void) {
  double a[M * N] = {1.0, 2.0, 0.5, -1.0, 3.0, 0.25};
  double b[M] = {0.3, -0.7, 1.1};
  double x[N] = {0.4, -0.2}, dx[N] = {0, 0};
  __enzyme_autodiff((void *)lsq, enzyme_const, a, x, dx, enzyme_const, b);
  double want[N] = {0, 0};
  for (int i = 0; i < M; i++) {
    double ri = a[i * N] * x[0] + a[i * N + 1] * x[1] - b[i];
    for (int j = 0; j < N; j++) want[j] += 2 * a[i * N + j] * ri;
  }
  fz_check_arr("2 A^T (A x - b)", dx, want, N, 1e-12);
  return fz_finish();
}
