// OPT: O0 O1 O2 O3
// Mutual recursion (even/odd style) with active data flowing both ways and
// a recursive function that writes through a pointer on the way back up.
#include "fz_test.h"

double podd(const double *x, int i, double acc);
double peven(const double *x, int i, double acc) {
  if (i < 0) return acc;
  return podd(x, i - 1, acc * x[i] + sin(acc));
}
double podd(const double *x, int i, double acc) {
  if (i < 0) return acc * acc;
  return peven(x, i - 1, acc + x[i] * x[i] * 0.5);
}

void backfill(const double *x, double *out, int i, int n) {
  if (i == n) return;
  backfill(x, out, i + 1, n);
  out[i] = x[i] * (i + 1 < n ? out[i + 1] : 1.0) + 0.1;
}

#define N 9
struct ctx { double *x; };
static double eval(void *p) { return peven(((struct ctx *)p)->x, N - 1, 0.7); }

int main(void) {
  fz_seed(129);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)peven, enzyme_dup, x, dx, enzyme_const, N - 1, enzyme_const, 0.7);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dmutual", dx, fd, N, 1e-6);

  double out[N], dout[N], want[N];
  for (int i = 0; i < N; i++) dout[i] = 1.0;
  fz_zero(dx, N);
  __enzyme_autodiff((void *)backfill, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, 0,
                    enzyme_const, N);
  /* out[i] = x_i out_{i+1} + 0.1; L = sum out. Adjoint a_i = 1 + x_{i-1} a_{i-1}. */
  double a = 0.0;
  for (int i = 0; i < N; i++) {
    a = 1.0 + (i ? x[i - 1] * a : 0.0);
    want[i] = a * (i + 1 < N ? out[i + 1] : 1.0);
  }
  fz_check_arr("dbackfill", dx, want, N, 1e-10);
  return fz_finish();
}
