// OMP_THREADS: 1 2 3
// OPT: O0 O2
// OpenMP as older HPC codes write it, without worksharing constructs: SPMD regions that
// split the index range by hand from omp_get_thread_num()/omp_get_num_threads(), write
// per-thread partial results into a shared array sized by omp_get_max_threads(), meet at
// an explicit barrier, and let the master combine them (`omp master` + barrier); a
// region with a `num_threads(3)` clause whatever OMP_NUM_THREADS says, and a region with
// a `critical` section whose team size changes between calls (omp_set_num_threads
// before each derivative). A `parallel for simd` with an `aligned`/`linear` clause and a
// reduction. Checked against analytic gradients, central finite differences and forward
// mode against reverse (the dot-product identity).
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 37

/* sum_i w_i * x_i^2 with hand-made chunks and a master combine. */
double spmd_quadratic(const double *x) {
  double partial[16] = {0};
  double total = 0;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = (int)((long)N * t / nt), hi = (int)((long)N * (t + 1) / nt);
    double s = 0;
    for (int i = lo; i < hi; i++) s += (1 + 0.1 * i) * x[i] * x[i];
    partial[t] = s;
#pragma omp barrier
#pragma omp master
    {
      for (int k = 0; k < nt; k++) total += partial[k];
    }
#pragma omp barrier
  }
  return total;
}

/* A region that always asks for three threads: sin of each, accumulated in a critical. */
double three_threads(const double *x) {
  double acc = 0;
#pragma omp parallel num_threads(3)
  {
    double mine = 0;
#pragma omp for schedule(static, 2)
    for (int i = 0; i < N; i++) mine += sin(x[i]) * (i % 4 + 1);
#pragma omp critical
    acc += mine * mine;
  }
  return acc;
}

/* simd with linear/aligned clauses and a reduction. */
double simd_loss(const double *x) {
  double s = 0;
  int j = 0;
#pragma omp parallel for simd reduction(+ : s) linear(j : 1) schedule(static)
  for (int i = 0; i < N; i++) {
    j = i;
    s += exp(0.2 * x[j]) * (j + 1);
  }
  return s;
}

static double X[N];
static double (*fn)(const double *);
static double eval(void *ctx) {
  (void)ctx;
  return fn(X);
}

int main(void) {
  int initial = omp_get_max_threads();
  fz_seed(22);
  fz_fill(X, N, -1, 1);
  double dx[N], want[N];
  fz_zero(dx, N);
  __enzyme_autodiff((void *)spmd_quadratic, enzyme_dup, X, dx);
  for (int i = 0; i < N; i++) want[i] = 2 * (1 + 0.1 * i) * X[i];
  fz_check_arr("d spmd_quadratic", dx, want, N, 1e-12);

  /* three_threads: the partial sums depend on the schedule: the analytic gradient
   * is computed with the same static,2 chunking over 3 threads. */
  for (int team = 1; team <= 3; team++) {
    omp_set_num_threads(team);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)three_threads, enzyme_dup, X, dx);
    int got = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp single
      got = omp_get_num_threads();
    }
    for (int i = 0; i < N; i++) {
      double p = 0; /* the partial sum of the thread that ran chunk i / 2 */
      for (int k = 0; k < N; k++)
        if ((k / 2) % got == (i / 2) % got) p += sin(X[k]) * (k % 4 + 1);
      want[i] = 2 * p * cos(X[i]) * (i % 4 + 1);
    }
    fz_check_arr("d three_threads", dx, want, N, 1e-12);
  }
  omp_set_num_threads(initial);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)simd_loss, enzyme_dup, X, dx);
  for (int i = 0; i < N; i++) want[i] = 0.2 * exp(0.2 * X[i]) * (i + 1);
  fz_check_arr("d simd_loss", dx, want, N, 1e-12);

  for (int k = 0; k < 3; k++) {
    fn = k == 0 ? spmd_quadratic : k == 1 ? three_threads : simd_loss;
    double v[N], dot = 0, jvp;
    fz_zero(dx, N);
    fz_fill(v, N, -1, 1);
    if (k == 0) {
      __enzyme_autodiff((void *)spmd_quadratic, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)spmd_quadratic, enzyme_dup, X, v);
    } else if (k == 1) {
      __enzyme_autodiff((void *)three_threads, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)three_threads, enzyme_dup, X, v);
    } else {
      __enzyme_autodiff((void *)simd_loss, enzyme_dup, X, dx);
      jvp = __enzyme_fwddiff((void *)simd_loss, enzyme_dup, X, v);
    }
    for (int i = 0; i < N; i += 6) fz_check("vs fd", dx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-6);
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("forward <J v> = <grad, v>", jvp, dot, 1e-10);
  }
  return fz_finish();
}
