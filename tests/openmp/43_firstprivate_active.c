// OMP_THREADS: 1 2 4
// OPT: O0 O2
// Active values captured `firstprivate`, as OpenMP codes write them (clang passes them to
// the region by value, as the bits of the double): a scale computed from the input and
// read in every iteration (`parallel for firstprivate(a) reduction(+:s)`), a copy each
// thread changes before its share of an `omp for` (`parallel firstprivate(b)`), a float,
// `default(none)` with an explicit list, and a region with an `if` clause (clang's
// branch to a serialized call). The derivative of every thread's copy flows back into
// the variable it was copied from. Reverse mode against central finite differences;
// forward mode by the dot-product identity. (These were a clear error until hpc28:
// tests/errors/openmp_firstprivate.c.)
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 23

double scale_sum(const double *x, int n) {
  double a = 0.5 + x[0] * x[1], s = 0;
#pragma omp parallel for firstprivate(a) reduction(+ : s) schedule(static)
  for (int i = 0; i < n; i++) s += a * x[i] * x[i] + sin(a * x[i]);
  return s;
}

double changed_copy(const double *x, int n) {
  double b = x[2] * x[3], out[N];
#pragma omp parallel firstprivate(b)
  {
    b = b * b + 1.0; /* every thread's copy, changed the same way */
#pragma omp for
    for (int i = 0; i < n; i++) out[i] = b * cos(x[i]);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i] * x[i];
  return s;
}

double float_and_default_none(const double *x, int n) {
  float c = (float)(x[4] + 1.0);
  double d = exp(x[5]), out[N];
#pragma omp parallel for default(none) firstprivate(c, d, n) shared(x, out)
  for (int i = 0; i < n; i++) out[i] = (double)c * x[i] + d * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += out[i];
  return s;
}

double with_if(const double *x, int n) {
  double a = x[6] * 2, s = 0;
#pragma omp parallel for firstprivate(a) reduction(+ : s) if (n > 4)
  for (int i = 0; i < n; i++) s += tanh(a * x[i]);
  return s;
}

static double (*cur)(const double *, int);
static double eval(void *ctx) { return cur((const double *)ctx, N); }
/* A macro: the hooks need the function itself, not a pointer variable. */
#define CHECK_FN(name, f, x, tol)                                                         \
  do {                                                                                    \
    double g[N] = {0}, v[N], fd[N], t, want = 0;                                          \
    cur = f;                                                                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);                      \
    for (int i = 0; i < N; i++) fd[i] = fz_fd_ptr(eval, x, &x[i]);                        \
    fz_check_arr(name " reverse vs fd", g, fd, N, tol);                                   \
    fz_fill(v, N, -1, 1);                                                                 \
    t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N);                   \
    for (int i = 0; i < N; i++) want += g[i] * v[i];                                      \
    fz_check(name " forward . v vs reverse", t, want, 1e-10);                             \
  } while (0)

int main(void) {
  double x[N];
  fz_fill(x, N, -1, 1);
  CHECK_FN("scale_sum", scale_sum, x, 1e-6);
  CHECK_FN("changed_copy", changed_copy, x, 1e-6);
  {
    /* The float copy of x[4] rounds (finite differences of it would be off by percents):
     * against the analytic gradient, c + 2 d x[i], plus sum x[i] for x[4] and d sum x[i]^2
     * for x[5]; the adjoint and tangent of the float copy are floats (~1e-7). */
    double g[N] = {0}, want[N], v[N], sx = 0, sxx = 0, t, dot = 0;
    float c = (float)(x[4] + 1.0);
    double d = exp(x[5]);
    for (int i = 0; i < N; i++) sx += x[i], sxx += x[i] * x[i];
    for (int i = 0; i < N; i++) want[i] = (double)c + 2 * d * x[i];
    want[4] += sx;
    want[5] += d * sxx;
    __enzyme_autodiff((void *)float_and_default_none, enzyme_dup, x, g, enzyme_const, N);
    fz_check_arr("float_and_default_none reverse vs analytic", g, want, N, 1e-6);
    fz_fill(v, N, -1, 1);
    t = __enzyme_fwddiff((void *)float_and_default_none, enzyme_dup, x, v, enzyme_const, N);
    for (int i = 0; i < N; i++) dot += want[i] * v[i];
    fz_check("float_and_default_none forward . v vs analytic", t, dot, 1e-6);
  }
  CHECK_FN("with_if", with_if, x, 1e-6);
  return fz_finish();
}
