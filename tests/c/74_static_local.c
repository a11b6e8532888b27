// OPT: O0 O1 O2 O3
// A static local array used as scratch inside the differentiated function
// (written, then read), and a static local accumulator reset on each call.
#include "fz_test.h"

#define N 10

double f(const double *x, int n) {
  static double scratch[64];
  static double acc;
  acc = 0.0;
  for (int i = 0; i < n; i++) scratch[i] = x[i] * x[i];
  for (int i = 1; i < n; i++) scratch[i] += scratch[i - 1] * 0.5;
  for (int i = 0; i < n; i++) acc += scratch[i] * cos(x[i]);
  return acc;
}

struct ctx { double *x; };
static double eval(void *p) { return f(((struct ctx *)p)->x, N); }

int main(void) {
  fz_seed(118);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  for (int rep = 0; rep < 2; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
    struct ctx c = {x};
    fz_fd_grad(eval, &c, x, N, fd);
    fz_check_arr(rep ? "dstatic (2nd call)" : "dstatic", dx, fd, N, 1e-6);
  }
  return fz_finish();
}
