// OPT: O0 O1 O2 O3
// In-place update across noinline calls in a loop; each step reads
// neighbours (some already updated this step).
#include "fz_test.h"

__attribute__((noinline)) void step(double *x, int n, double dt) {
  for (int i = 0; i < n; i++) {
    double r = x[(i + 1) % n];
    double l = x[(i + n - 1) % n];   /* already updated for i>0 */
    x[i] = x[i] + dt * (r * l - x[i] * x[i] * x[i]);
  }
}

double f(double *x, int n, int T) {
  for (int t = 0; t < T; t++) step(x, n, 0.1);
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * (i + 1);
  return s;
}

#define N 6
struct ctx { double *x; };
static double eval(void *p) {
  struct ctx *c = p;
  double t[N];
  memcpy(t, c->x, sizeof t);
  return f(t, N, 7);
}

int main(void) {
  fz_seed(204);
  double x0[N], x[N], dx[N], fd[N];
  fz_fill(x0, N, -1, 1);
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 7);
  struct ctx c = {x0};
  fz_fd_grad(eval, &c, x0, N, fd);
  fz_check_arr("dx", dx, fd, N, 1e-6);
  /* T = 0 */
  memcpy(x, x0, sizeof x);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 0);
  double w[N];
  for (int i = 0; i < N; i++) w[i] = i + 1;
  fz_check_arr("dx T=0", dx, w, N, 1e-12);
  return fz_finish();
}
