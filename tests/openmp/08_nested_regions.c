// OMP_THREADS: 1 2
// A parallel region inside a parallel region: with nested parallelism off (the
// default) each inner region has a team of one, but the inner regions of the outer
// team's threads run at the same time and read the same input, so their adjoint
// updates must still be atomic (a team of one inside a parallel derivative is not
// alone). Repeated to give a race a chance to show; checked against the analytic
// gradient.
#include "fz_test.h"

#define B 8
#define N 4000

void blocks(const double *x, double *y) {
#pragma omp parallel for
  for (int b = 0; b < B; b++) {
#pragma omp parallel for
    for (int i = 0; i < N; i++) y[b * N + i] = x[i] * x[(i + b) % N];
  }
}

double loss(const double *x) {
  static double y[B * N];
  blocks(x, y);
  double s = 0;
  for (int k = 0; k < B * N; k++) s += y[k];
  return s;
}

int main(void) {
  static double x[N], dx[N], want[N];
  fz_seed(18);
  fz_fill(x, N, -1, 1);
  /* d/dx_j sum_b sum_i x_i x_{(i+b)%N} = sum_b (x_{(j+b)%N} + x_{(j-b)%N}) */
  for (int j = 0; j < N; j++) {
    want[j] = 0;
    for (int b = 0; b < B; b++) want[j] += x[(j + b) % N] + x[(j - b + N) % N];
  }
  int bad = 0;
  for (int rep = 0; rep < 10; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
    for (int j = 0; j < N; j++)
      if (!fz_close(dx[j], want[j], 1e-12)) bad++;
  }
  fz_check("mismatching elements over 10 repetitions", bad, 0, 0);
  fz_check_arr("dx (first 8)", dx, want, 8, 1e-12);
  return fz_finish();
}
