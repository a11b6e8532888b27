// OPT: O0 O2
// A mutable global double accumulator written and then read inside the
// function; the user declares nothing, the derivative must still flow
// through the global.
#include "fz_test.h"

double g_acc;
double g_scale = 1.0;

__attribute__((noinline)) void add_to_acc(double v) { g_acc += v; }

double f(const double *x, int n) {
  g_acc = 0.0;
  for (int i = 0; i < n; i++) add_to_acc(x[i] * x[i]);
  g_scale = g_acc * 0.5;
  return g_acc * g_scale + x[0];
}

#define N 6
struct ctx { double *x; };
static double eval(void *c) { return f(((struct ctx *)c)->x, N); }

int main(void) {
  fz_seed(44);
  double x[N], dx[N], want[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* f = 0.5 S^2 + x0, S = sum x^2: df/dxi = S * 2 xi + [i==0] */
  double S = 0;
  for (int i = 0; i < N; i++) S += x[i] * x[i];
  for (int i = 0; i < N; i++) want[i] = 2.0 * S * x[i] + (i == 0);
  fz_check_arr("dx analytic", dx, want, N, 1e-10);
  fz_check("global primal value", g_acc, S, 1e-10);
  struct ctx c = {x};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("dx fd", dx, fd, N, 1e-6);
  return fz_finish();
}
