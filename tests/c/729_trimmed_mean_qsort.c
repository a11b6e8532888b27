// OPT: O0 O1 O2 O3
// A robust loss the way a user first writes it: copy the residuals, `qsort` them with a
// comparator, drop the largest and smallest and average the squares of the rest (a
// trimmed mean). `qsort` moves active doubles through libc, where no derivative can
// follow; the data sorted is active. Oracle: finite differences (no ties in the data).
#include "fz_test.h"

#define N 8

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double trimmed(const double *r, int n) {
  double *t = malloc(n * sizeof(double));
  memcpy(t, r, n * sizeof(double));
  qsort(t, n, sizeof(double), cmp_double);
  double s = 0.0;
  for (int i = 1; i < n - 1; i++) s += t[i] * t[i] * (i + 1);
  free(t);
  return s / (n - 2);
}

static double R[N];
static double eval(void *ctx) { (void)ctx; return trimmed(R, N); }

int main(void) {
  fz_seed(729);
  fz_fill(R, N, -3, 3);
  double dr[N] = {0}, fd[N];
  __enzyme_autodiff((void *)trimmed, enzyme_dup, R, dr, enzyme_const, N);
  fz_fd_grad(eval, NULL, R, N, fd);
  fz_check_arr("dtrimmed fd", dr, fd, N, 1e-6);
  return fz_finish();
}
