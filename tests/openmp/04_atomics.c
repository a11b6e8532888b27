// OMP_THREADS: 1 2
// Atomics in the primal: `#pragma omp atomic` scatters weighted values into a few bins
// (an `atomicrmw fadd` whose derivative reads the bin's adjoint), and a critical section
// updates a shared running maximum (its reverse runs in a critical section too). Checked
// against the analytic gradient and central finite differences; forward mode against
// the gradient.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define BINS 5

void scatter(const double *x, const int *bin, double *hist, double *peak, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] + 0.5 * x[i];
#pragma omp atomic
    hist[bin[i]] += v;
#pragma omp critical
    {
      if (v > *peak) *peak = v;
    }
  }
}

double loss(const double *x, const int *bin, int n) {
  double hist[BINS] = {0}, peak = -1e300;
  scatter(x, bin, hist, &peak, n);
  double s = 0;
  for (int b = 0; b < BINS; b++) s += (b + 1) * hist[b] * hist[b];
  return s + 3 * peak;
}

#define N 200
static double x[N];
static int bin[N];

static double eval(void *ctx) {
  (void)ctx;
  return loss(x, bin, N);
}

int main(void) {
  fz_seed(14);
  fz_fill(x, N, -1, 1);
  x[17] = 2.5; /* a clear maximum */
  for (int i = 0; i < N; i++) bin[i] = (i * 7) % BINS;
  double dx[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, bin, enzyme_const, N);
  double hist[BINS] = {0};
  for (int i = 0; i < N; i++) hist[bin[i]] += x[i] * x[i] + 0.5 * x[i];
  for (int i = 0; i < N; i++) {
    double want = 2 * (bin[i] + 1) * hist[bin[i]] * (2 * x[i] + 0.5);
    if (i == 17) want += 3 * (2 * x[i] + 0.5);
    char name[32];
    snprintf(name, sizeof name, "dx[%d]", i);
    fz_check(name, dx[i], want, 1e-10);
  }
  for (int i = 0; i < N; i += 23) {
    char name[32];
    snprintf(name, sizeof name, "fd[%d]", i);
    fz_check(name, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  double v[N];
  fz_fill(v, N, -1, 1);
  double jvp = __enzyme_fwddiff((void *)loss, enzyme_dup, x, v, enzyme_const, bin, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("forward mode <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
