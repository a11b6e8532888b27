// OPT: O0 O2
// Indirect calls inside the differentiated function (was tests/errors/indirect_call.c,
// a clean diagnostic until calls through pointers were supported): an activation chosen
// by an integer from a table of function pointers, and a callback passed in as a const
// argument. Oracle: analytic.
#include "fz_test.h"

typedef double (*act_t)(double);
__attribute__((noinline)) static double sq(double x) { return x * x; }
__attribute__((noinline)) static double sn(double x) { return sin(x); }
__attribute__((noinline)) static double ex(double x) { return exp(0.5 * x); }
static act_t table[3] = {sq, sn, ex};

double apply(const double *x, const int *which, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += table[which[i]](x[i]);
  return s;
}

double apply_cb(const double *x, int n, act_t f) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += f(x[i]) * (double)(i + 1);
  return s;
}

#define N 6
int main(void) {
  fz_seed(128);
  double x[N], dx[N], want[N];
  int which[N] = {0, 1, 2, 2, 1, 0};
  fz_fill(x, N, -1, 1);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)apply, enzyme_dup, x, dx, enzyme_const, which, enzyme_const, N);
  for (int i = 0; i < N; i++)
    want[i] = which[i] == 0 ? 2 * x[i] : which[i] == 1 ? cos(x[i]) : 0.5 * exp(0.5 * x[i]);
  fz_check_arr("dapply", dx, want, N, 1e-12);
  fz_zero(dx, N);
  __enzyme_autodiff((void *)apply_cb, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, sn);
  for (int i = 0; i < N; i++) want[i] = (i + 1) * cos(x[i]);
  fz_check_arr("dapply_cb", dx, want, N, 1e-12);
  return fz_finish();
}
