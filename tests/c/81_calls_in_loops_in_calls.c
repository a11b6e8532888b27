// OPT: O0 O1 O2 O3
// Calls inside loops inside calls, three levels deep, each level noinline,
// with the innermost writing through a pointer argument and the middle
// level reading what it wrote; the outer is differentiated from two sites.
#include "fz_test.h"

#define N 5

__attribute__((noinline)) static void leaf(const double *a, double *o, int k) {
  double s = 0.0;
  for (int j = 0; j <= k; j++) s += a[j] * a[k - j];
  *o = tanh(s);
}

__attribute__((noinline)) static double mid(const double *a, int n, double *buf) {
  double r = 0.0;
  for (int k = 0; k < n; k++) {
    leaf(a, &buf[k], k);
    r += buf[k] * (k > 0 ? buf[k - 1] : 1.0);
  }
  return r;
}

double outer(const double *x, int n, int reps) {
  double buf[N];
  double a[N];
  for (int i = 0; i < n; i++) a[i] = x[i];
  double t = 0.0;
  for (int r = 0; r < reps; r++) {
    t += mid(a, n, buf);
    for (int i = 0; i < n; i++) a[i] = 0.5 * a[i] + 0.3 * buf[i];
  }
  return t;
}

struct ctx { double *x; int reps; };
static double eval(void *p) { struct ctx *c = p; return outer(c->x, N, c->reps); }

int main(void) {
  fz_seed(123);
  double x[N], dx[N], fd[N];
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)outer, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 4);
  struct ctx c = {x, 4};
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("douter reps=4", dx, fd, N, 1e-6);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)outer, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 1);
  c.reps = 1;
  fz_fd_grad(eval, &c, x, N, fd);
  fz_check_arr("douter reps=1", dx, fd, N, 1e-6);
  return fz_finish();
}
