// OPT: O0 O1 O2 O3
// A VLA declared inside a loop body (stacksave/alloca/stackrestore each
// iteration, size varying with the iteration), its contents feeding a
// value carried across iterations.
#include "fz_test.h"

#define N 9

double f(const double *x, int n) {
  double carry = 1.0;
  for (int it = 1; it <= n; it++) {
    double buf[it];
    for (int k = 0; k < it; k++) buf[k] = x[k] * carry + (double)k;
    double s = 0.0;
    for (int k = 0; k < it; k++) s += buf[k] * buf[it - 1 - k];
    carry = 0.5 * carry + 0.01 * s;
  }
  return carry;
}

/* __builtin_alloca in a loop: memory grows each iteration */
double g(const double *x, int n) {
  double acc = 0.0;
  for (int it = 0; it < n; it++) {
    double *t = (double *)__builtin_alloca(sizeof(double) * (size_t)(it + 1));
    for (int k = 0; k <= it; k++) t[k] = sin(x[k]) * (double)(it - k + 1);
    for (int k = 0; k <= it; k++) acc += t[k] * t[k] * 0.1;
  }
  return acc;
}

struct ctx { double *x; int w; };
static double eval(void *p) { struct ctx *c = p; return c->w ? g(c->x, N) : f(c->x, N); }

int main(void) {
  fz_seed(120);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  struct ctx c = {x, 0};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dvla_loop", dx, fd, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, N);
  c.w = 1;
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dalloca_loop", dx, fd, N, 1e-6);
  return fz_finish();
}
