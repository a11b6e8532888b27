// OMP_THREADS: 1 2 4
// CFLAGS: -fnoopenmp-use-tls
// `#pragma omp threadprivate` in C: a per-thread accumulator and a per-thread work
// array, as older OpenMP codes keep them. clang's default lowering of threadprivate data
// is the platform's thread-local storage (tests/openmp/36); with
// -fnoopenmp-use-tls clang reaches them through libomp's __kmpc_threadprivate_cached,
// whose built-in rule gives each thread its own shadow copy. `partial` fills the copies
// in one region and reads them in the next (they persist with the same team); `carry`
// reads the copy main's region set, then overwrites it, so its adjoint is left in the
// thread's shadow copy and must not leak into the next top-level call. Checked against
// central finite differences (twice in a row) and forward mode against reverse mode.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static double acc;
static double work[3];
static int visits;
#pragma omp threadprivate(acc, work, visits)

double partial(const double *x, int n) {
  double s = 0;
#pragma omp parallel
  {
    acc = 0;
    visits = 0;
    work[0] = work[1] = work[2] = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      acc += x[i] * x[i];
      work[i % 3] += sin(x[i]);
      visits++;
    }
  }
#pragma omp parallel reduction(+ : s)
  s += acc * work[0] + work[1] * work[2] + (visits > 0 ? acc : 0);
  return s;
}

double carry(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; i++) s += acc * x[i] * x[i];
#pragma omp parallel reduction(+ : s)
  {
    acc = x[0];
    s += acc * acc * acc;
  }
  return s;
}

static void set_acc(double a) {
#pragma omp parallel
  acc = a;
}

#define N 41
static double x[N];
static double acc0;

static double eval_partial(void *ctx) {
  (void)ctx;
  return partial(x, N);
}

static double eval_carry(void *ctx) {
  (void)ctx;
  set_acc(acc0);
  return carry(x, N);
}

int main(void) {
  fz_seed(33);
  fz_fill(x, N, -1, 1);
  double dx[N], v[N];
  for (int round = 0; round < 2; round++) {
    fz_zero(dx, N);
    __enzyme_autodiff((void *)partial, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i += 5) {
      char name[40];
      snprintf(name, sizeof name, "partial fd[%d] round %d", i, round);
      fz_check(name, dx[i], fz_fd_ptr(eval_partial, 0, &x[i]), 1e-6);
    }
  }
  fz_fill(v, N, -1, 1);
  double jvp = __enzyme_fwddiff((void *)partial, enzyme_dup, x, v, enzyme_const, N);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("partial: forward <J v> = <grad, v>", jvp, dot, 1e-10);

  for (int round = 0; round < 2; round++) {
    acc0 = 0.75 + round;
    set_acc(acc0);
    fz_zero(dx, N);
    __enzyme_autodiff((void *)carry, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i += 4) {
      char name[40];
      snprintf(name, sizeof name, "carry fd[%d] round %d", i, round);
      fz_check(name, dx[i], fz_fd_ptr(eval_carry, 0, &x[i]), 1e-6);
    }
  }
  return fz_finish();
}
