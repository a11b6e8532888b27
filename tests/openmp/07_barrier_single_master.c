// OMP_THREADS: 1 2
// One parallel region with two worksharing loops (the implicit barrier between them),
// a `single` block, a `master` block, an explicit `barrier` and a `nowait` loop: the
// reverse region mirrors every barrier (the shadow memory the phases share is ordered
// the same way) and replays which thread ran the single and master blocks. Checked
// against central finite differences and forward mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

void phases(const double *x, double *y, double *z, double *stats, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] * x[i] + sin(x[i]);
#pragma omp single
    {
      double s = 0;
      for (int i = 0; i < n; i++) s += y[i];
      stats[0] = s;
    }
#pragma omp for nowait
    for (int i = 0; i < n; i++) z[i] = y[(i + 1) % n] / (1.0 + stats[0] * stats[0]);
#pragma omp master
    stats[1] = 2.0 * x[0];
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) z[i] += stats[1] * y[i];
  }
}

double loss(const double *x, int n) {
  double y[64], z[64], stats[2];
  phases(x, y, z, stats, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += z[i] * (1.0 + 0.1 * i);
  return s;
}

#define N 40
static double x[N];

static double eval(void *ctx) {
  (void)ctx;
  return loss(x, N);
}

int main(void) {
  fz_seed(17);
  fz_fill(x, N, -1, 1);
  double dx[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "dx[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  double v[N];
  fz_fill(v, N, -1, 1);
  double jvp = __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("forward mode <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
