// OMP_THREADS: 1 2 4
// OPT: O0 O2
// ARGS: -latomic
// A `reduction(+ : z)` of a C `double complex` (a Fourier coefficient of the input,
// sum of x[k+2] e^{i x[k]}), the loss its squared modulus. clang combines the complex
// partial sums with `__atomic_load`/`__atomic_compare_exchange` library calls (16 bytes),
// so the program links with -latomic whether or not it is differentiated. Reverse mode
// against central finite differences of the serial program, forward mode by the
// dot-product identity, a second gradient equal to the first; 1, 2 and 4 threads.
#include <complex.h>
#include <omp.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 16

double loss(const double *x, int n) {
  double complex z = 0;
#pragma omp parallel for reduction(+ : z)
  for (int k = 0; k < n; k++) z += cexp(I * x[k]) * x[(k + 2) % n];
  return creal(z * conj(z));
}

static double serial(const double *x, int n) {
  double complex z = 0;
  for (int k = 0; k < n; k++) z += cexp(I * x[k]) * x[(k + 2) % n];
  return creal(z * conj(z));
}

static double xs[N];
static double eval(void *ctx) {
  (void)ctx;
  return serial(xs, N);
}

int main(void) {
  fz_seed(81);
  fz_fill(xs, N, -0.9, 0.9);
  double g[N], g2[N], v[N];
  fz_zero(g, N);
  fz_check("value vs serial", loss(xs, N), serial(xs, N), 1e-12);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    char name[32];
    snprintf(name, sizeof name, "grad[%d] vs fd", k);
    fz_check(name, g[k], fz_fd_ptr(eval, 0, &xs[k]), 1e-6);
  }
  fz_fill(v, N, -1, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, xs, v, enzyme_const, N);
  double dot = 0;
  for (int k = 0; k < N; k++) dot += g[k] * v[k];
  fz_check("forward . v = reverse . v", jv, dot, 1e-10);
  fz_zero(g2, N);
  __enzyme_autodiff((void *)loss, enzyme_dup, xs, g2, enzyme_const, N);
  fz_check_arr("second gradient", g2, g, N, 1e-12);
  return fz_finish();
}
