// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Clauses on values computed from the input, as OpenMP codes write them: an active
// scale read shared in every iteration (captured `firstprivate`: tests/openmp/43;
// masked bits in an integer: tests/errors/openmp_firstprivate.c), an active `lastprivate` value used after the loop, `reduction(max:)` of an active double
// beside `reduction(+:)`, an orphaned `omp for reduction(+:)` in a called function
// inside a `parallel` region with a `master` section and a `barrier`, and per-thread
// partial sums indexed by `omp_get_thread_num()` under `schedule(dynamic, 2)`.
// Reverse mode against central finite differences; forward mode by the dot-product
// identity.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 37
#define MAXT 64

double clauses(const double *x, int n) {
  double a = 0.5 + x[0] * x[1], last = 0, s = 0, big = -1e300;
#pragma omp parallel for shared(a) lastprivate(last) reduction(+ : s) reduction(max : big) schedule(static)
  for (int i = 0; i < n; i++) {
    double v = a * x[i] + sin(x[(i + 3) % n]);
    s += v * v;
    big = v > big ? v : big;
    last = v * x[i];
  }
  return s + 3 * big + last * last;
}

static void scaled_sum(const double *x, int n, double *acc) {
#pragma omp for reduction(+ : acc[0]) schedule(guided)
  for (int i = 0; i < n; i++) acc[0] += cos(x[i]) * x[(i + 1) % n];
}

double orphaned(const double *x, int n) {
  double acc[1] = {0}, head = 0;
#pragma omp parallel
  {
#pragma omp master
    head = x[0] * x[n - 1];
#pragma omp barrier
    scaled_sum(x, n, acc);
  }
  return acc[0] * head + acc[0];
}

double per_thread(const double *x, int n) {
  double part[MAXT] = {0};
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++) part[t] += exp(0.1 * x[i]) * x[i];
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t];
  return s * s; /* the partition (dynamic, differs between runs) only reorders the sum */
}

static double (*cur)(const double *, int);
static double eval(void *ctx) { return cur((const double *)ctx, N); }

/* A macro: the hooks need the function itself, not a pointer variable. */
#define CHECK_FN(name, f, x)                                                              \
  do {                                                                                    \
    double g[N] = {0}, v[N], fd[N], t, want = 0;                                          \
    cur = f;                                                                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);                      \
    for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, x, &x[i]);                        \
    fz_check_arr(name " reverse vs fd", g, fd, N, 1e-6);                                  \
    fz_fill(v, N, -1, 1);                                                                 \
    t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);                   \
    for (int i = 0; i < N; i++) want += g[i] * v[i];                                      \
    fz_check(name " forward . v vs reverse", t, want, 1e-10);                             \
  } while (0)

int main(void) {
  double x[N];
  fz_fill(x, N, -1, 1);
  CHECK_FN("clauses", clauses, x);
  CHECK_FN("orphaned", orphaned, x);
  CHECK_FN("per_thread", per_thread, x);
  return fz_finish();
}
