// OPT: O0 O1 O2 O3
// memset zeroing an active buffer in the middle of the computation (its
// earlier contents must stop contributing), and bzero-like loops.
#include "fz_test.h"

double f(double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  memset(a, 0, sizeof(double) * (size_t)(n / 2)); /* first half cleared */
  for (int i = 0; i < n; i++) a[i] += s * 0.1;
  double t = 0.0;
  for (int i = 0; i < n; i++) t += a[i] * a[i] * (double)(i + 1);
  return t;
}

#define N 8
struct ctx { double *a; };
static double eval(void *p) {
  double t[N];
  memcpy(t, ((struct ctx *)p)->a, sizeof t);
  return f(t, N);
}

int main(void) {
  fz_seed(139);
  double a0[N], a[N], da[N], fd[N];
  fz_fill(a0, N, -1, 1);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, N);
  struct ctx c = {a0};
  fz_fd_grad(eval, &c, a0, N, fd);
  fz_check_arr("dmemset", da, fd, N, 1e-6);
  return fz_finish();
}
