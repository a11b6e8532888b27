// OPT: O0 O1 O2 O3
// GCC vector extensions: typedef double v4 __attribute__((vector_size(32)))
// with element-wise arithmetic, __builtin_shufflevector, element access by
// index, and vector loads from a double array via memcpy.
#include "fz_test.h"

typedef double v4 __attribute__((vector_size(32)));

double f(const double *x, int n) {
  v4 acc = {0, 0, 0, 0};
  for (int i = 0; i + 4 <= n; i += 4) {
    v4 v;
    memcpy(&v, &x[i], sizeof v);
    v4 r = __builtin_shufflevector(v, v, 3, 2, 1, 0);
    acc += v * r + v * v * v;
  }
  return acc[0] + 2.0 * acc[1] + 3.0 * acc[2] + 4.0 * acc[3];
}

#define N 12
struct ctx { double *x; };
static double eval(void *p) { return f(((struct ctx *)p)->x, N); }

int main(void) {
  fz_seed(138);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dvec", dx, fd, N, 1e-6);
  return fz_finish();
}
