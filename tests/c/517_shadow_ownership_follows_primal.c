// OPT: O0 O2 O3
// Who frees the shadow of memory allocated inside the gradient: the shadow lives until
// the reverse sweep has replayed the allocation AND its primal is freed, in either order,
// and outlives the gradient with its primal (runtime/ir/shadows.ll). Four shapes, each
// checked against the analytic gradient and central finite differences:
//  (a) a helper returns a fresh buffer, the caller frees it in the same loop iteration
//      (the primal free runs in the forward sweep, before the replay);
//  (b) a helper frees a buffer the caller allocated (the free runs inside a callee);
//  (c) the function replaces the buffer of an object the user passed (enzyme_dup): the
//      old buffer (the user's, with the user's shadow) is freed with its shadow, the new
//      one (and its shadow) is the user's afterwards, who frees both;
//  (d) the same gradient called twice in a row with the result kept by the user;
//  (e) the function grows the user's buffer with `realloc`: the adjoints of the kept
//      elements flow back to the user's old shadow, and the new buffer and its shadow
//      are the user's afterwards;
//  (f) a scratch buffer from one of two allocators chosen at run time, freed in the loop
//      that made it (the replay frees its shadow; the free must not adopt it).
// Double frees abort the program (glibc), and the shadows the user frees in (c)/(d) are
// read after the gradient: a shadow freed early would be a use after free.
#include <math.h>
#include <stdlib.h>

#include "fz_test.h"

extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) double *make_scaled(const double *x, int n, double c) {
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    b[i] = c * x[i];
  return b;
}

__attribute__((noinline)) double sum_sin_and_free(double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(b[i]);
  free(b);
  return s;
}

// (a) + (b)
double fa(const double *x, int n) {
  double s = 0;
  for (int k = 1; k <= 3; k++) {
    double *b = make_scaled(x, n, (double)k);
    for (int i = 0; i < n; i++)
      s += b[i] * b[i];
    free(b);
  }
  double *c = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    c[i] = x[i] * x[i];
  return s + sum_sin_and_free(c, n);
}
static double fa_truth(const double *x, int n, int i) {
  (void)n;
  return 2 * x[i] * (1 + 4 + 9) + cos(x[i] * x[i]) * 2 * x[i];
}

typedef struct {
  double *data;
  int n;
} Vec;

// (c): replace out->data by a fresh buffer holding x^2, return sum of x^2 * 3
__attribute__((noinline)) void vec_reset(Vec *v, int n) {
  free(v->data);
  v->data = (double *)malloc(n * sizeof(double));
  v->n = n;
}
double fc(Vec *out, const double *x, int n) {
  vec_reset(out, n);
  double s = 0;
  for (int i = 0; i < n; i++) {
    out->data[i] = x[i] * x[i];
    s += 3 * out->data[i];
  }
  return s;
}

// (e): s = sum(old data) + sum_i x_i * old_i
double fe(Vec *v, const double *x, int n) {
  v->data = (double *)realloc(v->data, 2 * n * sizeof(double));
  for (int i = 0; i < n; i++)
    v->data[n + i] = x[i] * v->data[i];
  double s = 0;
  for (int i = 0; i < 2 * n; i++)
    s += v->data[i];
  v->n = 2 * n;
  return s;
}

// (f): sum_k sum_i (x_i (k+1))^2 for k = 0, 1
double ff(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 2; k++) {
    double *b = (k == 0) ? (double *)malloc(n * sizeof(double))
                         : (double *)calloc(n, sizeof(double));
    for (int i = 0; i < n; i++)
      b[i] = x[i] * (k + 1);
    for (int i = 0; i < n; i++)
      s += b[i] * b[i];
    free(b);
  }
  return s;
}

static const double *fd_x;
static int fd_i, fd_n;
static double fa_at(double xi) {
  double x[4];
  for (int k = 0; k < fd_n; k++)
    x[k] = fd_x[k];
  x[fd_i] = xi;
  return fa(x, fd_n);
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -0.7, 1.1, 0.5};
  double dx[N] = {0};
  __enzyme_autodiff((void *)fa, enzyme_dup, x, dx, enzyme_const, N);
  fd_x = x;
  fd_n = N;
  for (int i = 0; i < N; i++) {
    fd_i = i;
    fz_check("(a,b) analytic", dx[i], fa_truth(x, N, i), 1e-10);
    fz_check("(a,b) finite differences", dx[i], fz_fd1(fa_at, x[i]), 1e-6);
  }

  for (int round = 0; round < 2; round++) {  // (d): twice, the user keeping the buffers
    Vec out = {(double *)calloc(N, sizeof(double)), N};
    Vec dout = {(double *)calloc(N, sizeof(double)), N};
    double dxc[N] = {0};
    __enzyme_autodiff((void *)fc, enzyme_dup, &out, &dout, enzyme_dup, x, dxc, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      fz_check("(c) analytic", dxc[i], 6 * x[i], 1e-12);
      fz_check("(c) primal output kept", out.data[i], x[i] * x[i], 0);
      fz_check("(c) output shadow is the user's and zero after the sweep", dout.data[i], 0, 0);
    }
    free(out.data);
    free(dout.data);
  }
  {  // (e)
    Vec v = {(double *)malloc(N * sizeof(double)), N};
    Vec dv = {(double *)calloc(N, sizeof(double)), N};
    double *old_shadow = dv.data;
    double c[N] = {2.0, -1.0, 0.25, 3.0}, dxe[N] = {0};
    for (int i = 0; i < N; i++)
      v.data[i] = c[i];
    __enzyme_autodiff((void *)fe, enzyme_dup, &v, &dv, enzyme_dup, x, dxe, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      fz_check("(e) d/dx analytic", dxe[i], c[i], 1e-12);
      fz_check("(e) adjoint of the old elements in the user's old shadow", old_shadow[i],
               1 + x[i], 1e-12);
      fz_check("(e) primal grown", v.data[N + i], x[i] * c[i], 1e-15);
    }
    free(v.data);
    if (dv.data != old_shadow)
      free(dv.data);
    free(old_shadow);
  }
  {  // (f)
    double dxf[N] = {0};
    __enzyme_autodiff((void *)ff, enzyme_dup, x, dxf, enzyme_const, N);
    for (int i = 0; i < N; i++)
      fz_check("(f) analytic", dxf[i], 10 * x[i], 1e-12);
  }
  return fz_finish();
}
