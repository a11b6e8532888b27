// OPT: O0 O1 O2 O3
// probe43: memory and control shapes around active arrays: a VLA cleared by memset,
// filled by memcpy, shifted left and right by overlapping memmoves, smoothed through
// `restrict` pointers into an alloca buffer, part of it cleared again by memset (killing
// active values); a recursive tree reduction (sqrt of the children's sum), a global
// accumulator and a static scratch buffer written inside, an argmax selected by
// comparisons (no qsort). Reverse against central differences, forward against
// <gradient, v>. Passed as written.
#include "fz_test.h"
#include <alloca.h>
#include "fz_grad_check.h"
static void smooth(int n, double *restrict out, const double *restrict in) {
  for (int i = 1; i < n - 1; i++) out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1];
  out[0] = in[0]; out[n-1] = in[n-1];
}
double memops(const double *x, int n) {
  double vla[n + 2];
  memset(vla, 0, sizeof vla);
  memcpy(vla + 1, x, n * sizeof(double));
  memmove(vla, vla + 1, n * sizeof(double));        /* overlapping shift left */
  memmove(vla + 2, vla + 1, (n - 1) * sizeof(double)); /* overlapping shift right */
  double *tmp = alloca((n + 2) * sizeof(double));
  smooth(n + 2, tmp, vla);
  memset(tmp + n, 0, 2 * sizeof(double));           /* kill active values */
  double s = 0;
  for (int i = 0; i < n + 2; i++) s += tmp[i] * tmp[i] * (i + 1);
  return s;
}
/* recursion: tree reduction, global accumulator, static scratch, argmax */
static double tree(const double *x, int lo, int hi) {
  if (hi - lo == 1) return x[lo] * x[lo];
  int mid = (lo + hi) / 2;
  double a = tree(x, lo, mid), b = tree(x, mid, hi);
  return sqrt(a + b + 0.1);
}
double G_ACC;
static double scratch[64];
double globals(const double *x, int n) {
  G_ACC = 0;
  for (int i = 0; i < n; i++) { scratch[i] = exp(0.3 * x[i]); G_ACC += scratch[i]; }
  int best = 0;
  for (int i = 1; i < n; i++) if (scratch[i] > scratch[best]) best = i;
  double sm = 0;
  for (int i = 0; i < n; i++) sm += scratch[i] / G_ACC * x[i];
  return sm + scratch[best] * 2 + tree(x, 0, n);
}
int main(void) {
  double x[7] = {0.3, -1.1, 0.8, 2.0, -0.5, 1.4, 0.9};
  FZ_CHECK_GRAD("mem ops", memops, x, 7, 1e-6);
  FZ_CHECK_GRAD("globals/tree/argmax", globals, x, 7, 1e-6);
  return fz_finish();
}
