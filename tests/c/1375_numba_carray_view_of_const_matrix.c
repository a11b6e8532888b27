// OPT: O0 O1 O2 O3
// numba's `loop_matvec_sum` at NUMBA_OPT=0 written as C (num34; the numba module crashed,
// python/tests/test_front34_users.py): a helper builds the array struct of an
// `enzyme_const` 2-D argument {meminfo, parent, nitems, itemsize, data, shape, strides}
// (numba's `impl_carray`) in the caller's struct, which has a shadow because the caller
// keeps the differentiable `w`'s struct beside it; the loop reads the data pointer back
// and fills an `np.empty` buffer with X w, whose sum is returned. clang stores the
// fields one by one (a constant pointer stored alone: runtime activity took it over
// already); numba stores the struct whole, which tests/filetests/
// runtime_activity_record_own_shadow.ll pins. Oracles: d/dw sum(X w) = X^T 1
// (analytic), central finite differences; X unchanged.
#include <stdlib.h>
#include "fz_test.h"

enum { R = 5, C = 3 };

typedef struct {
  void *meminfo, *parent;
  long nitems, itemsize;
  double *data;
  long shape[2], strides[2];
} array2;

typedef struct { array2 x, w; } args;

__attribute__((noinline)) void carray(array2 *out, double *p, long n0, long n1) {
  array2 t = {0};
  t.nitems = n0 * n1;
  t.itemsize = 8;
  t.data = p;
  t.shape[0] = n0;
  t.shape[1] = n1;
  t.strides[0] = 8 * n1;
  t.strides[1] = 8;
  *out = t;
}

__attribute__((noinline)) double loop_matvec_sum(const args *a) {
  long n = a->x.shape[0], m = a->x.shape[1];
  double *v = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (long j = 0; j < m; j++)
      s += *(double *)((char *)a->x.data + i * a->x.strides[0] + j * a->x.strides[1]) *
           a->w.data[j * a->w.strides[0] / 8];
    v[i] = s;
  }
  double t = 0;
  for (long i = 0; i < n; i++) t += v[i];
  free(v);
  return t;
}

double body(double *X, double *w, long n0, long n1) {
  args a;
  carray(&a.x, X, n0, n1);
  carray(&a.w, w, n1, 1);
  return loop_matvec_sum(&a);
}

static double X[R * C];
static double eval(void *w) { return body(X, (double *)w, R, C); }

int main(void) {
  fz_seed(1375);
  double w[C], dw[C] = {0}, X0[R * C], want[C] = {0}, fd[C];
  fz_fill(X, R * C, -1, 1);
  fz_fill(w, C, -1, 1);
  for (int k = 0; k < R * C; k++) X0[k] = X[k];
  __enzyme_autodiff((void *)body, enzyme_const, X, enzyme_dup, w, dw, enzyme_const, (long)R,
                    enzyme_const, (long)C);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) want[j] += X[i * C + j];
  fz_check_arr("d/dw sum(X w) = X^T 1", dw, want, C, 1e-12);
  fz_fd_grad(eval, w, w, C, fd);
  fz_check_arr("finite differences", dw, fd, C, 1e-6);
  fz_check_arr("X unchanged", X, X0, R * C, 0);
  return fz_finish();
}
