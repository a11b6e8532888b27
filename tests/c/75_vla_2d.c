// OPT: O0 O1 O2 O3
// 2-D VLAs on the stack (double a[n][m]) as temporaries and as parameters
// (double (*M)[m]), matrix product into a VLA then a Frobenius-type norm.
#include "fz_test.h"

#define NR 4
#define NC 5

double f(int n, int m, const double (*A)[m], const double *x) {
  double T[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) T[i][j] = A[i][j] * x[j] + (i ? T[i - 1][j] : 0.0);
  double G[n][n];
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      double s = 0.0;
      for (int j = 0; j < m; j++) s += T[i][j] * T[k][j];
      G[i][k] = s;
    }
  double r = 0.0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) r += G[i][k] * (double)(i + 2 * k + 1);
  return sqrt(r * r + 1.0);
}

struct ctx { double (*A)[NC]; double *x; };
static double eval(void *p) { struct ctx *c = p; return f(NR, NC, (const double (*)[NC])c->A, c->x); }

int main(void) {
  fz_seed(119);
  double A[NR][NC], dA[NR][NC], x[NC], dx[NC], fdA[NR * NC], fdx[NC];
  fz_fill(&A[0][0], NR * NC, -1, 1);
  fz_fill(x, NC, -1, 1);
  fz_zero(&dA[0][0], NR * NC);
  fz_zero(dx, NC);
  __enzyme_autodiff((void *)f, enzyme_const, NR, enzyme_const, NC, enzyme_dup, A, dA, enzyme_dup,
                    x, dx);
  struct ctx c = {A, x};
  fz_fd_grad(eval, &c, &A[0][0], NR * NC, fdA);
  fz_fd_grad(eval, &c, x, NC, fdx);
  fz_check_arr("dA", &dA[0][0], fdA, NR * NC, 1e-6);
  fz_check_arr("dx", dx, fdx, NC, 1e-6);
  return fz_finish();
}
