// OPT: O0 O2
// memmove with overlapping ranges inside the differentiated function.
#include "fz_test.h"

#define N 10

double f(const double *x, int n) {
  double buf[N + 4];
  for (int i = 0; i < n; i++) buf[i] = x[i] * (double)(i + 1);
  memmove(buf + 2, buf, sizeof(double) * (size_t)n); /* shift right by 2, overlapping */
  buf[0] = x[0];
  buf[1] = x[1] * x[1];
  double s = 0.0;
  for (int i = 0; i < n + 2; i++) s += buf[i] * buf[i] * 0.5;
  return s;
}

struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(27);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* s = 1/2 [x0^2 + x1^4 + sum_i (i+1)^2 x_i^2] */
  for (int i = 0; i < N; i++) want[i] = (double)((i + 1) * (i + 1)) * x[i];
  want[0] += x[0];
  want[1] += 2.0 * x[1] * x[1] * x[1];
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
