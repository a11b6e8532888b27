// OPT: O0 O1 O2 O3
// Deep recursion (depth 10000): a non-tail-recursive product/sum walk over an
// array and a recursion whose result feeds a nonlinear op after the call.
#include "fz_test.h"

#define DEPTH 10000

double rec(const double *x, int i, int n) {
  if (i == n) return 0.0;
  double r = rec(x, i + 1, n);
  return sin(x[i]) + 0.999 * r * cos(0.001 * x[i]);
}

double rec_tail(const double *x, int i, int n, double acc) {
  if (i == n) return acc;
  return rec_tail(x, i + 1, n, acc * 0.9999 + x[i] * x[i]);
}

int main(void) {
  fz_seed(126);
  double *x = malloc(sizeof(double) * DEPTH), *dx = calloc(DEPTH, sizeof(double));
  double *want = malloc(sizeof(double) * DEPTH);
  for (int i = 0; i < DEPTH; i++) x[i] = fz_uniform(-1, 1);
  __enzyme_autodiff((void *)rec, enzyme_dup, x, dx, enzyme_const, 0, enzyme_const, DEPTH);
  /* oracle: r_i = sin x_i + 0.999 r_{i+1} cos(0.001 x_i); backprop by hand */
  double *r = malloc(sizeof(double) * (DEPTH + 1));
  r[DEPTH] = 0.0;
  for (int i = DEPTH - 1; i >= 0; i--) r[i] = sin(x[i]) + 0.999 * r[i + 1] * cos(0.001 * x[i]);
  double adj = 1.0;
  for (int i = 0; i < DEPTH; i++) {
    want[i] = adj * (cos(x[i]) - 0.999 * r[i + 1] * 0.001 * sin(0.001 * x[i]));
    adj *= 0.999 * cos(0.001 * x[i]);
  }
  int bad = 0;
  for (int i = 0; i < DEPTH; i++) bad += !fz_close(dx[i], want[i], 1e-10);
  fz_check("drec mismatching elements", bad, 0, 0);
  fz_check("drec[0]", dx[0], want[0], 1e-10);
  fz_check("drec[last]", dx[DEPTH - 1], want[DEPTH - 1], 1e-10);

  fz_zero(dx, DEPTH);
  double dacc = __enzyme_autodiff((void *)rec_tail, enzyme_dup, x, dx, enzyme_const, 0,
                                  enzyme_const, DEPTH, 0.5);
  bad = 0;
  for (int i = 0; i < DEPTH; i++) bad += !fz_close(dx[i], 2 * x[i] * pow(0.9999, DEPTH - 1 - i), 1e-10);
  fz_check("drec_tail mismatching elements", bad, 0, 0);
  fz_check("drec_tail dacc", dacc, pow(0.9999, DEPTH), 1e-10);
  free(x); free(dx); free(want); free(r);
  return fz_finish();
}
