// OPT: O0 O1 O2 O3
// The same function differentiated twice in one program with different
// activity: once with the matrix const and vector dup, once the other way,
// once both dup, plus the scalar once active once const.
#include "fz_test.h"

#define N 6

double q(const double *A, const double *x, double s, int n) {
  double r = 0.0;
  for (int i = 0; i < n; i++) {
    double t = 0.0;
    for (int j = 0; j < n; j++) t += A[i * n + j] * x[j];
    r += t * t * s + t * x[i];
  }
  return r;
}

struct ctx { double *A, *x; double s; };
static double eval(void *p) { struct ctx *c = p; return q(c->A, c->x, c->s, N); }
static double eval_s(void *p) {
  struct ctx *c = p;
  return q(c->A, c->x, c->s, N);
}

int main(void) {
  fz_seed(122);
  double A[N * N], dA[N * N], x[N], dx[N], fdA[N * N], fdx[N], s = 0.7;
  fz_fill(A, N * N, -1, 1);
  fz_fill(x, N, -1, 1);
  struct ctx c = {A, x, s};
  fz_fd_grad(eval, &c, A, N * N, fdA);
  fz_fd_grad(eval, &c, x, N, fdx);
  double fds = fz_fd_ptr(eval_s, &c, &c.s);

  fz_zero(dx, N);
  double ds1 = __enzyme_autodiff((void *)q, enzyme_const, A, enzyme_dup, x, dx, s, enzyme_const, N);
  fz_check_arr("constA dx", dx, fdx, N, 1e-6);
  fz_check("constA ds", ds1, fds, 1e-6);

  fz_zero(dA, N * N);
  __enzyme_autodiff((void *)q, enzyme_dup, A, dA, enzyme_const, x, enzyme_const, s, enzyme_const, N);
  fz_check_arr("constx dA", dA, fdA, N * N, 1e-6);

  fz_zero(dA, N * N);
  fz_zero(dx, N);
  double ds3 = __enzyme_autodiff((void *)q, A, dA, x, dx, s, N);
  fz_check_arr("implicit dA", dA, fdA, N * N, 1e-6);
  fz_check_arr("implicit dx", dx, fdx, N, 1e-6);
  fz_check("implicit ds", ds3, fds, 1e-6);

  /* same activity from a second call site, with different data */
  double x2[N];
  for (int i = 0; i < N; i++) x2[i] = x[i] * 0.5;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)q, enzyme_const, A, enzyme_dup, x2, dx, enzyme_const, s, enzyme_const, N);
  struct ctx c2 = {A, x2, s};
  fz_fd_grad(eval, &c2, x2, N, fdx);
  fz_check_arr("2nd site dx", dx, fdx, N, 1e-6);
  return fz_finish();
}
