// OPT: O0 O1 O2 O3
// The same array passed as both input and output (aliasing pointer args,
// with the same shadow for both), and overlapping sub-arrays x and x+1.
#include "fz_test.h"

__attribute__((noinline)) void smooth(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] * in[i] * 0.5 + (i ? out[i - 1] * 0.3 : 0.0);
}

double f_alias(double *a, int n) {
  smooth(a, a, n); /* in == out */
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * (double)(i + 1);
  return s;
}

double f_shift(double *a, int n) {
  smooth(a, a + 1, n - 1); /* out overlaps in shifted by one */
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return s;
}

#define N 7
struct ctx { double *a; int w; };
static double eval(void *p) {
  struct ctx *c = p;
  double t[N];
  memcpy(t, c->a, sizeof t);
  return c->w ? f_shift(t, N) : f_alias(t, N);
}

int main(void) {
  fz_seed(136);
  double a0[N], a[N], da[N], fd[N];
  fz_fill(a0, N, -1, 1);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)f_alias, enzyme_dup, a, da, enzyme_const, N);
  struct ctx c = {a0, 0};
  fz_fd_grad(eval, &c, a0, N, fd);
  fz_check_arr("dalias", da, fd, N, 1e-6);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)f_shift, enzyme_dup, a, da, enzyme_const, N);
  c.w = 1;
  fz_fd_grad(eval, &c, a0, N, fd);
  fz_check_arr("dshift", da, fd, N, 1e-6);
  return fz_finish();
}
