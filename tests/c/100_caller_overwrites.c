// OPT: O0 O1 O2 O3
// A noinline helper reads an array nonlinearly; the caller then overwrites
// the array in place and calls the helper again. The first helper's reverse
// pass needs the ORIGINAL values, not the overwritten ones.
#include "fz_test.h"

__attribute__((noinline)) double cube_sum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i] * a[i];
  return s;
}

double f(double *a, int n) {
  double s = cube_sum(a, n);
  for (int i = 0; i < n; i++) a[i] = 0.5 * a[i] + 1.0;
  s += cube_sum(a, n);
  for (int i = 0; i < n; i++) a[i] = sin(a[i]);
  s += 2.0 * cube_sum(a, n);
  return s;
}

#define N 9
struct ctx { double *a; };
static double eval(void *p) {
  struct ctx *c = p;
  double t[N];
  memcpy(t, c->a, sizeof t);
  return f(t, N);
}

int main(void) {
  fz_seed(201);
  double a0[N], a[N], da[N], fd[N];
  fz_fill(a0, N, -1, 1);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, N);
  struct ctx c = {a0};
  fz_fd_grad(eval, &c, a0, N, fd);
  fz_check_arr("da", da, fd, N, 1e-6);
  return fz_finish();
}
