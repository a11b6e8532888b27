// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Newer OpenMP spellings of familiar work sharing, each loss against the same computation
// written serially (value, 1e-12), central finite differences of that serial program
// (every entry) and forward mode against reverse (the dot-product identity):
// * `lastprivate(conditional: v)`: the value from the last iteration that assigned it
//   (here: the last entry above a threshold, scaled), not from the last iteration;
// * `parallel for simd reduction(+:s)` and `for simd` inside a region with `nowait`
//   and a `barrier`;
// * `masked` (OpenMP 5.1, the successor of `master`) combining per-thread results
//   written to a shared array, after a barrier.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 24
#define T 8 /* the most threads a test uses, slots for partial results */

double cond_last(const double *x) {
  double v = 0, s = 0;
#pragma omp parallel for lastprivate(conditional : v) reduction(+ : s)
  for (int i = 0; i < N; i++) {
    if (x[i] > 0.2) v = x[i] * x[(i + 3) % N];
    s += x[i] * x[i];
  }
  return v * v + s;
}

double serial_cond_last(const double *x) {
  double v = 0, s = 0;
  for (int i = 0; i < N; i++) {
    if (x[i] > 0.2) v = x[i] * x[(i + 3) % N];
    s += x[i] * x[i];
  }
  return v * v + s;
}

double for_simd(const double *x) {
  double s = 0, y[N], z[N];
#pragma omp parallel for simd reduction(+ : s)
  for (int i = 0; i < N; i++) s += sin(x[i]) * x[i];
#pragma omp parallel shared(y, z)
  {
#pragma omp for simd nowait
    for (int i = 0; i < N; i++) y[i] = x[i] * s;
#pragma omp for simd nowait
    for (int i = 0; i < N; i++) z[i] = exp(0.3 * x[i]);
#pragma omp barrier
  }
  double t = 0;
  for (int i = 0; i < N; i++) t += y[i] * z[(i + 1) % N];
  return t;
}

double serial_for_simd(const double *x) {
  double s = 0, t = 0;
  for (int i = 0; i < N; i++) s += sin(x[i]) * x[i];
  for (int i = 0; i < N; i++) t += x[i] * s * exp(0.3 * x[(i + 1) % N]);
  return t;
}

double masked_combine(const double *x) {
  double part[T] = {0}, total = 0;
#pragma omp parallel shared(part, total)
  {
    int me = omp_get_thread_num(), nt = omp_get_num_threads();
    double p = 0;
    for (int i = me; i < N; i += nt) p += x[i] * x[i] * (1 + 0.1 * i);
    part[me] = p;
#pragma omp barrier
#pragma omp masked
    {
      for (int k = 0; k < nt; k++) total += part[k] * part[k];
    }
  }
  return total;
}

/* The masked thread squares each thread's partial sum: the serial program needs the
 * same partition, so it takes the team size the parallel run used. */
static int team;
double serial_masked(const double *x) {
  double total = 0;
  for (int me = 0; me < team; me++) {
    double p = 0;
    for (int i = me; i < N; i += team) p += x[i] * x[i] * (1 + 0.1 * i);
    total += p * p;
  }
  return total;
}

typedef double (*loss_fn)(const double *);
static double X[N];
static loss_fn serial_now;
static double eval(void *ctx) {
  (void)ctx;
  return serial_now(X);
}

static void check_one(const char *name, loss_fn par, loss_fn ser, const double *dx,
                      const double *v, double jvp) {
  char what[96];
  double fd[N], dot = 0;
  serial_now = ser;
  snprintf(what, sizeof what, "%s value", name);
  fz_check(what, par(X), ser(X), 1e-12);
  for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, 0, &X[i]);
  snprintf(what, sizeof what, "d %s vs fd", name);
  fz_check_arr(what, dx, fd, N, 1e-6);
  for (int i = 0; i < N; i++) dot += dx[i] * v[i];
  snprintf(what, sizeof what, "%s forward <J v> = <grad, v>", name);
  fz_check(what, jvp, dot, 1e-10);
}

#define CHECK(par, ser)                                                  \
  do {                                                                   \
    double dx[N], v[N];                                                  \
    fz_zero(dx, N);                                                      \
    __enzyme_autodiff((void *)par, enzyme_dup, X, dx);                  \
    fz_fill(v, N, -1, 1);                                                \
    double jvp = __enzyme_fwddiff((void *)par, enzyme_dup, X, v);       \
    check_one(#par, par, ser, dx, v, jvp);                               \
  } while (0)

int main(void) {
  fz_seed(53);
  fz_fill(X, N, -1, 1);
  for (int i = 0; i < N; i++)
    if (fabs(X[i] - 0.2) < 1e-3) X[i] += 0.01; /* no entry at the threshold */
  team = omp_get_max_threads();
  if (team > T) team = T, omp_set_num_threads(T);
  CHECK(cond_last, serial_cond_last);
  CHECK(for_simd, serial_for_simd);
  CHECK(masked_combine, serial_masked);
  return fz_finish();
}
