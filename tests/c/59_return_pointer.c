// OPT: O0 O1 O2 O3
// Helper functions returning pointers into arrays (row(A,i,n), pick max
// element pointer), not inlined at -O0 (and noinline everywhere).
#include "fz_test.h"

__attribute__((noinline)) double *row(double *A, int i, int n) { return A + (size_t)i * n; }

__attribute__((noinline)) const double *argmax_ptr(const double *v, int n) {
  const double *b = v;
  for (int i = 1; i < n; i++)
    if (v[i] > *b) b = &v[i];
  return b;
}

/* out[i] = sum_j A[i][j]*x[j]; returns sum_i out[i]^2 + max(x)*A[0][0] */
double f(double *A, const double *x, double *out, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double *r = row(A, i, n);
    double acc = 0.0;
    for (int j = 0; j < n; j++) acc += r[j] * x[j];
    out[i] = acc;
    s += acc * acc;
  }
  const double *m = argmax_ptr(x, n);
  *row(A, n - 1, n) *= 2.0; /* write through a returned pointer: A[n-1][0] doubled */
  return s + *m * row(A, 0, n)[0] + row(A, n - 1, n)[0];
}

#define N 5
struct ctx { double *A, *x; };
static double eval(void *c) {
  struct ctx *k = c;
  double Ac[N * N], o[N];
  memcpy(Ac, k->A, sizeof Ac);
  return f(Ac, k->x, o, N);
}

int main(void) {
  fz_seed(106);
  double A[N * N], dA[N * N], x[N], dx[N], o[N], d_o[N], A0[N * N], fdA[N * N], fdx[N];
  fz_fill(A, N * N, -1, 1);
  fz_fill(x, N, -1, 1);
  memcpy(A0, A, sizeof A);
  fz_zero(dA, N * N);
  fz_zero(dx, N);
  fz_zero(d_o, N);
  __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_dup, o, d_o,
                    enzyme_const, N);
  fz_check("A[n-1][0] doubled", A[(N - 1) * N], 2.0 * A0[(N - 1) * N], 0);
  struct ctx c = {A0, x};
  fz_fd_grad(eval, &c, A0, N * N, fdA);
  fz_fd_grad(eval, &c, x, N, fdx);
  fz_check_arr("dA", dA, fdA, N * N, 1e-6);
  fz_check_arr("dx", dx, fdx, N, 1e-6);
  return fz_finish();
}
