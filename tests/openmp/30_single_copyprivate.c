// OMP_THREADS: 1 2 4
// OPT: O0 O2
// `single copyprivate(...)` as OpenMP codes broadcast a value one thread computes to
// the private variables of the whole team: inside one parallel region, a `single`
// computes a normalisation and a shift from the whole input and hands both to every
// thread's private copies (copyprivate of two doubles), an `omp for` uses them, then a
// second `single copyprivate` hands a small private array of coefficients (computed
// from the partial result gathered in a shared array after a barrier) to an `omp for
// reduction(+:)`; an orphaned `single copyprivate` in a function called from a
// region. `__kmpc_copyprivate` was refused ("moves values between threads'
// private memory"); the derivative now runs it as publish, barrier, copy, barrier
// (parallel/copyprivate.rs), whose adjoint adds every thread's adjoint of its copy into
// the executing thread's variable (atomically in a team). Checked against central
// finite differences of the program itself (the orphaned one against its analytic
// gradient), and forward mode against reverse.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24

double normalised_energy(const double *x) {
  double s = 0, part[N];
#pragma omp parallel
  {
    double scale, shift, c[3];
#pragma omp single copyprivate(scale, shift)
    {
      double q = 0;
      for (int i = 0; i < N; i++) q += x[i] * x[i];
      scale = 1.0 / sqrt(q);
      shift = sin(x[0]) * x[N - 1];
    }
#pragma omp for
    for (int i = 0; i < N; i++) part[i] = scale * x[i] + shift;
#pragma omp single copyprivate(c)
    {
      c[0] = part[0] * part[1];
      c[1] = exp(0.3 * part[N / 2]);
      c[2] = part[N - 1] + 0.5;
    }
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; i++) s += c[i % 3] * part[i] * part[i] + c[(i + 1) % 3] * x[i];
  }
  return s;
}

/* An orphaned `single copyprivate` in a function called from the region. */
static double bcast_norm(const double *x) {
  double a;
#pragma omp single copyprivate(a)
  {
    a = 0;
    for (int i = 0; i < N; i++) a += x[i] * x[i];
  }
  return a;
}

double orphaned(const double *x) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    double a = bcast_norm(x);
#pragma omp for
    for (int i = 0; i < N; i++) s += a * sin(x[i]);
  }
  return s;
}

static double X[N];
static double eval(void *ctx) {
  (void)ctx;
  return normalised_energy(X);
}

int main(void) {
  fz_seed(30);
  fz_fill(X, N, -1, 1);
  double dx[N], fd[N];
  for (int rep = 0; rep < 5; rep++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)normalised_energy, enzyme_dup, X, dx);
    if (rep == 0) fz_fd_grad(eval, 0, X, N, fd);
    fz_check_arr("gradient vs central differences", dx, fd, N, 1e-6);
  }
  /* the orphaned one against its analytic gradient: 2 x_k S + A cos(x_k) */
  double S = 0, A = 0, want[N];
  for (int i = 0; i < N; i++) S += sin(X[i]), A += X[i] * X[i];
  for (int k = 0; k < N; k++) want[k] = 2 * X[k] * S + A * cos(X[k]);
  double dy[N];
  for (int rep = 0; rep < 5; rep++) {
    fz_zero(dy, N);
    __enzyme_autodiff((void *)orphaned, enzyme_dup, X, dy);
    fz_check_arr("orphaned copyprivate gradient vs analytic", dy, want, N, 1e-12);
  }
  double v[N], jvp, dot = 0;
  fz_fill(v, N, -1, 1);
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  jvp = __enzyme_fwddiff((void *)normalised_energy, enzyme_dup, X, v);
  fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
