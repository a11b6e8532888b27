// OPT: O0 O1 O2 O3
// Integer results feeding float math: a histogram of the inputs (bin = (int)floor(...),
// clamped, counts in an int array on the stack) whose counts weight the inputs; the
// argmax index chosen by a strict > scan, its value squared; a rank (how many inputs
// are smaller) used as an exponent in pow(x, rank) and through ldexp(x, rank).
// Oracle: analytic (counts, argmax and ranks are piecewise constant), forward mode
// against the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 9, BINS = 4 };

double hist_objective(const double *x, int n, double lo, double hi) {
  int count[BINS] = {0};
  int bin_of[N];
  double w = (hi - lo) / BINS;
  for (int i = 0; i < n; i++) {
    int b = (int)floor((x[i] - lo) / w);
    if (b < 0) b = 0;
    if (b >= BINS) b = BINS - 1;
    bin_of[i] = b;
    count[b]++;
  }
  double f = 0.0;
  for (int i = 0; i < n; i++) f += x[i] * count[bin_of[i]] / (double)n;
  int best = 0;
  for (int i = 1; i < n; i++)
    if (x[i] > x[best]) best = i;
  f += x[best] * x[best];
  for (int i = 0; i < n; i++) {
    int rank = 0;
    for (int j = 0; j < n; j++) rank += x[j] < x[i];
    f += 0.1 * pow(fabs(x[i]), rank % 3) + ldexp(x[i], rank - 4);
  }
  return f;
}

int main(void) {
  fz_seed(1157);
  double x[N], dx[N] = {0}, want[N];
  fz_fill(x, N, -1.9, 1.9);
  double lo = -2, hi = 2, w = (hi - lo) / BINS;
  int count[BINS] = {0}, bin_of[N], best = 0;
  for (int i = 0; i < N; i++) {
    int b = (int)((x[i] - lo) / w);
    bin_of[i] = b;
    count[b]++;
    if (x[i] > x[best]) best = i;
  }
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += x[j] < x[i];
    int p = rank % 3;
    double sg = x[i] < 0 ? -1.0 : 1.0;
    want[i] = (double)count[bin_of[i]] / N + ldexp(1.0, rank - 4);
    if (p > 0) want[i] += 0.1 * p * pow(fabs(x[i]), p - 1) * sg;
  }
  want[best] += 2 * x[best];
  __enzyme_autodiff((void *)hist_objective, enzyme_dup, x, dx, enzyme_const, N,
                    enzyme_const, lo, enzyme_const, hi);
  fz_check_arr("dx", dx, want, N, 1e-12);
  double v[N], wt = 0;
  for (int i = 0; i < N; i++) v[i] = fz_uniform(-1, 1), wt += v[i] * want[i];
  double t = __enzyme_fwddiff((void *)hist_objective, enzyme_dup, x, v, enzyme_const, N,
                              enzyme_const, lo, enzyme_const, hi);
  fz_check("forward = <grad, v>", t, wt, 1e-12);
  return fz_finish();
}
