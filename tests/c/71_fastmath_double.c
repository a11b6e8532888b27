// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// -ffast-math reductions of doubles (reassociated, vectorized with several
// accumulators), fast reciprocal/sqrt, and a fast-math softmax-weighted sum.
#include "fz_test.h"

#define N 37

double reduce(const double *x, int n) {
  double s = 0.0, p = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * x[i];
    p += x[i] / (1.0 + x[i] * x[i]);
  }
  return s * p + sqrt(s * s + 1.0);
}

double softmax_dot(const double *x, const double *v, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  double z = 0.0, s = 0.0;
  for (int i = 0; i < n; i++) {
    double e = exp(x[i] - m);
    z += e;
    s += e * v[i];
  }
  return s / z;
}

struct ctx { double *x, *v; int w; };
static double eval(void *p) {
  struct ctx *c = p;
  return c->w ? softmax_dot(c->x, c->v, N) : reduce(c->x, N);
}

int main(void) {
  fz_seed(117);
  double x[N], dx[N], fd[N], v[N], dv[N], fdv[N];
  fz_fill(x, N, -1, 1);
  fz_fill(v, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)reduce, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x, v, 0};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dreduce", dx, fd, N, 1e-6);

  fz_zero(dx, N);
  fz_zero(dv, N);
  __enzyme_autodiff((void *)softmax_dot, enzyme_dup, x, dx, enzyme_dup, v, dv, enzyme_const, N);
  c.w = 1;
  fz_fd_grad(eval, &c, x, N, fd);
  fz_fd_grad(eval, &c, v, N, fdv);
  fz_check_arr("dsoftmax/dx", dx, fd, N, 1e-6);
  fz_check_arr("dsoftmax/dv", dv, fdv, N, 1e-6);
  return fz_finish();
}
