// OPT: O0 O1 O2 O3
// A helper writes its output into a scratch buffer; the caller reads it and
// overwrites the buffer with new values (via another helper call), in a loop.
#include "fz_test.h"

__attribute__((noinline)) void h(double *out, const double *x, double c) {
  out[0] = x[0] * x[1] * c;
  out[1] = sin(x[0] + c);
  out[2] = out[0] * out[1];
}

double f(double *x, double *tmp, int iters) {
  double s = 0;
  for (int t = 0; t < iters; t++) {
    h(tmp, x, 0.3 * t);
    s += tmp[0] * tmp[1] * tmp[2];
    tmp[0] = s * s;        /* caller overwrites helper output */
    tmp[1] = cos(tmp[2]);
    s += tmp[0] * tmp[1];
    x[0] = x[0] * 0.9 + tmp[1] * 0.01;
  }
  return s;
}

struct ctx { double *x; };
static double eval(void *p) {
  struct ctx *c = p;
  double x[2] = {c->x[0], c->x[1]}, t[3] = {0, 0, 0};
  return f(x, t, 4);
}

int main(void) {
  double x0[2] = {0.4, -0.6}, x[2], dx[2], tmp[3] = {0}, dtmp[3] = {0}, fd[2];
  memcpy(x, x0, sizeof x);
  fz_zero(dx, 2);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, tmp, dtmp, enzyme_const, 4);
  struct ctx c = {x0};
  fz_fd_grad(eval, &c, x0, 2, fd);
  fz_check_arr("dx", dx, fd, 2, 1e-6);
  return fz_finish();
}
