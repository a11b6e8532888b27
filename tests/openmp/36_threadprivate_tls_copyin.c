// OMP_THREADS: 1 2 4
// OPT: O0 O2
// `#pragma omp threadprivate` with clang's default lowering (the platform's thread-local
// storage, no -fnoopenmp-use-tls), and a `_Thread_local` variable, in a module with
// parallel regions: each thread's copy gets the thread's copy of a thread-local shadow,
// zeroed the first time the thread reaches it in each top-level call (this program was
// the error tests/errors/openmp_threadprivate.c before hpc23). `total` is that error
// program: a per-thread accumulator summed by a reduction. `spread` sets the initial
// thread's copy, hands it to the team with `copyin` (the adjoints of the team's copies
// flow back into the initial thread's), scales each copy in the team and reads the
// initial thread's copy after the region. `carry` reads the copies a region of main set
// before the call, then overwrites them (an adjoint left in a worker's shadow copy must
// not leak into the next call). `tl_chunks` keeps a worksharing loop's partial sums in a
// `_Thread_local`. Gradients against central finite differences, twice in a row, and
// forward mode against reverse mode (the dot-product identity).
#include <omp.h>

#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

static double acc;
#pragma omp threadprivate(acc)
static _Thread_local double chunk;

double total(const double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    acc = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) acc += x[i] * x[i];
    s += acc * acc;
  }
  return s;
}

double spread(const double *x, int n) {
  (void)n;
  acc = x[0] * x[1];
  double s = 0;
#pragma omp parallel copyin(acc) reduction(+ : s)
  {
    int t = omp_get_thread_num();
    acc *= sin(x[2 + t % 3]);
    s += acc * acc;
  }
  return s + 3 * acc;
}

double carry(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; i++) s += acc * x[i] * x[i];
#pragma omp parallel reduction(+ : s)
  {
    acc = x[1];
    s += acc * acc * acc;
  }
  return s;
}

double tl_chunks(const double *x, int n) {
  double s = 0;
#pragma omp parallel reduction(+ : s)
  {
    chunk = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) chunk += cos(x[i]);
    s += chunk * chunk;
  }
  return s;
}

static void set_acc(double a) {
#pragma omp parallel
  acc = a;
}

#define N 23
static double x[N];
static double acc0;
typedef double (*fn)(const double *, int);
static fn current;

static double eval(void *ctx) {
  (void)ctx;
  if (current == carry) set_acc(acc0);
  return current(x, N);
}

/* The derivatives of each function (the first argument of __enzyme_* must be the
 * function itself). */
#define DERIVATIVES(f)                                                                  \
  static void grad_##f(double *dx) {                                                   \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);                  \
  }                                                                                    \
  static double jvp_##f(double *v) {                                                   \
    return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);             \
  }
DERIVATIVES(total)
DERIVATIVES(spread)
DERIVATIVES(carry)
DERIVATIVES(tl_chunks)

static void check_grad(const char *name, fn f, void (*grad)(double *), double (*jvp_of)(double *),
                       int round) {
  double dx[N];
  fz_zero(dx, N);
  if (f == carry) set_acc(acc0);
  grad(dx);
  current = f;
  for (int i = 0; i < N; i += 2) {
    char what[64];
    snprintf(what, sizeof what, "%s fd[%d] round %d", name, i, round);
    fz_check(what, dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
  }
  if (f == carry) return; /* forward mode of carry: below */
  double v[N];
  fz_fill(v, N, -1, 1);
  double jvp = jvp_of(v);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  char what[64];
  snprintf(what, sizeof what, "%s: forward <J v> = <grad, v> round %d", name, round);
  fz_check(what, jvp, dot, 1e-10);
}

int main(void) {
  fz_seed(36);
  fz_fill(x, N, -1, 1);
  for (int round = 0; round < 2; round++) {
    check_grad("total", total, grad_total, jvp_total, round);
    check_grad("spread", spread, grad_spread, jvp_spread, round);
    check_grad("tl_chunks", tl_chunks, grad_tl_chunks, jvp_tl_chunks, round);
    acc0 = 0.5 + round;
    check_grad("carry", carry, grad_carry, jvp_carry, round);
  }
  /* forward mode of carry: the tangent of the copies main set is zero */
  acc0 = 1.25;
  set_acc(acc0);
  double dx[N], v[N];
  fz_zero(dx, N);
  grad_carry(dx);
  fz_fill(v, N, -1, 1);
  set_acc(acc0);
  double jvp = jvp_carry(v);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  fz_check("carry: forward <J v> = <grad, v>", jvp, dot, 1e-10);
  return fz_finish();
}
