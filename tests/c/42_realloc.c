// OPT: O0 O2
// realloc growing a buffer inside the differentiated function; values
// computed before the realloc must survive it.
#include "fz_test.h"

double f(const double *x, int n) {
  int cap = 2, len = 0;
  double *buf = (double *)malloc(sizeof(double) * (size_t)cap);
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = (double *)realloc(buf, sizeof(double) * (size_t)cap);
    }
    buf[len++] = x[i] * exp(0.1 * x[i]);
  }
  double s = 0.0;
  for (int i = 0; i < len; i++) s += buf[i] * buf[len - 1 - i];
  free(buf);
  return s;
}

#define N 21
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(42);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double g = exp(0.1 * x[i]) * (1.0 + 0.1 * x[i]);
    int j = N - 1 - i;
    want[i] = 2.0 * g * x[j] * exp(0.1 * x[j]);
  }
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
