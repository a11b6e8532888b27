// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Work-sharing shapes a solver combines in one region, each loss against the same
// computation written serially (value, 1e-12), central finite differences of that serial
// program (every entry) and forward mode against reverse (the dot-product identity):
// * halves: a recursive `task` over the two halves of an array, down to blocks of 4,
//   each half's partial result combined after `taskwait` (divide and conquer);
// * sections: two `section`s computing different sums into shared variables, a `single
//   nowait` writing a third, an explicit `barrier`, then a `for nowait` over a scratch
//   array, another `barrier`, and a `single` combining them; `omp_get_wtime()` is read
//   inside the region (a clock, no derivative) and only its sign used;
// * private clauses: `parallel for firstprivate(scale) lastprivate(last)` with an active
//   `scale`, and a `simd reduction(+:s)` loop inside a `for`.
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 32

static double half_sum(const double *x, int lo, int hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += x[i] * x[i] * cos(x[i]);
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = 0, b = 0;
#pragma omp task shared(a)
  a = half_sum(x, lo, mid);
#pragma omp task shared(b)
  b = half_sum(x, mid, hi);
#pragma omp taskwait
  return a + b + 0.01 * a * b;
}

double halves(const double *x) {
  double s = 0;
#pragma omp parallel shared(s)
#pragma omp single
  s = half_sum(x, 0, N);
  return s * s;
}

static double serial_half(const double *x, int lo, int hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += x[i] * x[i] * cos(x[i]);
    return s;
  }
  int mid = (lo + hi) / 2;
  double a = serial_half(x, lo, mid), b = serial_half(x, mid, hi);
  return a + b + 0.01 * a * b;
}

double serial_halves(const double *x) {
  double s = serial_half(x, 0, N);
  return s * s;
}

double sections(const double *x) {
  double a = 0, b = 0, c = 0, t[N], out = 0;
  int clock_ok = 1;
#pragma omp parallel shared(a, b, c, t, out, clock_ok)
  {
    double t0 = omp_get_wtime();
#pragma omp sections
    {
#pragma omp section
      for (int i = 0; i < N; i += 2) a += sin(x[i]) * x[i + 1];
#pragma omp section
      for (int i = 1; i < N; i += 2) b += exp(0.2 * x[i]);
    }
#pragma omp single nowait
    c = x[0] * x[N - 1] + 1;
#pragma omp barrier
#pragma omp for nowait
    for (int i = 0; i < N; i++) t[i] = a * x[i] + b * x[i] * x[i] + c;
#pragma omp barrier
#pragma omp single
    {
      for (int i = 0; i < N; i++) out += t[i] * t[i] * 0.01;
      /* The wall clock (libomp's omp_get_wtime is gettimeofday) may be stepped back a
       * little by a time daemon: only more than a day counts as broken. */
      if (omp_get_wtime() < t0 - 86400.0) clock_ok = 0;
    }
  }
  return clock_ok ? out : 0;
}

double serial_sections(const double *x) {
  double a = 0, b = 0, out = 0;
  for (int i = 0; i < N; i += 2) a += sin(x[i]) * x[i + 1];
  for (int i = 1; i < N; i += 2) b += exp(0.2 * x[i]);
  double c = x[0] * x[N - 1] + 1;
  for (int i = 0; i < N; i++) {
    double t = a * x[i] + b * x[i] * x[i] + c;
    out += t * t * 0.01;
  }
  return out;
}

double private_clauses(const double *x) {
  double scale = x[3] * 0.5 + 1, last = 0, y[N], s = 0;
#pragma omp parallel for firstprivate(scale) lastprivate(last) shared(y)
  for (int i = 0; i < N; i++) {
    y[i] = scale * x[i] + x[(i + 5) % N] * x[i];
    last = y[i] * scale;
    scale += 0; /* each thread's own copy */
  }
#pragma omp parallel
  {
#pragma omp for reduction(+ : s)
    for (int b = 0; b < N; b += 8) {
      double p = 0;
#pragma omp simd reduction(+ : p)
      for (int i = b; i < b + 8; i++) p += y[i] * y[i];
      s += p * (1 + 0.1 * b);
    }
  }
  return s + last * last;
}

double serial_private(const double *x) {
  double scale = x[3] * 0.5 + 1, y[N], s = 0, last = 0;
  for (int i = 0; i < N; i++) {
    y[i] = scale * x[i] + x[(i + 5) % N] * x[i];
    last = y[i] * scale;
  }
  for (int b = 0; b < N; b += 8) {
    double p = 0;
    for (int i = b; i < b + 8; i++) p += y[i] * y[i];
    s += p * (1 + 0.1 * b);
  }
  return s + last * last;
}

typedef double (*loss_fn)(const double *);
static double X[N];
static loss_fn serial_now;
static double eval(void *ctx) {
  (void)ctx;
  return serial_now(X);
}

/* Checks the reverse gradient `dx` and the forward derivative `jvp` along `v` of `name`
 * against the serial program `ser`. */
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
  fz_seed(51);
  fz_fill(X, N, -1, 1);
  CHECK(halves, serial_halves);
  CHECK(sections, serial_sections);
  CHECK(private_clauses, serial_private);
  return fz_finish();
}
