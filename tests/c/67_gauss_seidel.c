// OPT: O0 O1 O2 O3
// Gauss-Seidel sweeps updating x in place (each update reads freshly
// written neighbours), a fixed number of sweeps, then a residual norm.
#include "fz_test.h"

#define N 8
#define SWEEPS 6

double gs(const double *A, const double *b, double *x, int n, int sweeps) {
  for (int s = 0; s < sweeps; s++)
    for (int i = 0; i < n; i++) {
      double r = b[i];
      for (int j = 0; j < n; j++)
        if (j != i) r -= A[i * n + j] * x[j];
      x[i] = r / A[i * n + i];
    }
  double out = 0.0;
  for (int i = 0; i < n; i++) out += x[i] * x[i] * (double)(i + 1);
  return out;
}

struct ctx { double *A, *b, *x; };
static double eval(void *p) {
  struct ctx *c = p;
  double x[N];
  memcpy(x, c->x, sizeof x);
  return gs(c->A, c->b, x, N, SWEEPS);
}

int main(void) {
  fz_seed(113);
  double A[N * N], dA[N * N], b[N], db[N], x0[N], x[N], dx[N];
  double fdA[N * N], fdb[N], fdx[N];
  fz_fill(A, N * N, -0.5, 0.5);
  for (int i = 0; i < N; i++) A[i * N + i] = 3.0 + A[i * N + i];
  fz_fill(b, N, -1, 1);
  fz_fill(x0, N, -0.2, 0.2);
  memcpy(x, x0, sizeof x);
  fz_zero(dA, N * N);
  fz_zero(db, N);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)gs, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_dup, x, dx,
                    enzyme_const, N, enzyme_const, SWEEPS);
  struct ctx c = {A, b, x0};
  fz_fd_grad(eval, &c, A, N * N, fdA);
  fz_fd_grad(eval, &c, b, N, fdb);
  fz_fd_grad(eval, &c, x0, N, fdx);
  fz_check_arr("dA", dA, fdA, N * N, 1e-6);
  fz_check_arr("db", db, fdb, N, 1e-6);
  fz_check_arr("dx0", dx, fdx, N, 1e-6);
  return fz_finish();
}
