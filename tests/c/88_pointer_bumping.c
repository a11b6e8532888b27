// OPT: O0 O1 O2 O3
// Classic pointer-bumping loops: while (n--) s += *p++ * *q++; a
// write-through-bumped-pointer copy loop; and pointer comparison loop bounds.
#include "fz_test.h"

double dotp(const double *p, const double *q, int n) {
  double s = 0.0;
  while (n--) s += *p++ * *q++;
  return s;
}

double scanp(double *a, int n) {
  double *end = a + n;
  double prev = 0.0;
  for (double *p = a; p != end; ++p) {
    *p = *p * *p + prev;
    prev = *p * 0.5;
  }
  double s = 0.0;
  for (const double *p = end - 1; p >= a; --p) s = s * 0.9 + *p;
  return s;
}

#define N 11
struct ctx { double *a; };
static double eval(void *p) {
  double t[N];
  memcpy(t, ((struct ctx *)p)->a, sizeof t);
  return scanp(t, N);
}

int main(void) {
  fz_seed(131);
  double p[N], q[N], dp[N], dq[N];
  fz_fill(p, N, -1, 1);
  fz_fill(q, N, -1, 1);
  fz_zero(dp, N);
  fz_zero(dq, N);
  __enzyme_autodiff((void *)dotp, enzyme_dup, p, dp, enzyme_dup, q, dq, enzyme_const, N);
  fz_check_arr("ddot/dp", dp, q, N, 1e-12);
  fz_check_arr("ddot/dq", dq, p, N, 1e-12);
  double a[N], a0[N], da[N], fd[N];
  memcpy(a0, p, sizeof a0);
  memcpy(a, a0, sizeof a);
  fz_zero(da, N);
  __enzyme_autodiff((void *)scanp, enzyme_dup, a, da, enzyme_const, N);
  struct ctx c = {a0};
  fz_fd_grad(eval, &c, a0, N, fd);
  fz_check_arr("dscanp", da, fd, N, 1e-6);
  return fz_finish();
}
