// OPT: O0 O1 O2 O3
// Split mode whose tape size the caller asks for (sweep20): `__enzyme_augmentsize` gives
// the bytes of the tape of a function with a loop of run-time length and an internal
// malloc'd scratch buffer; the caller allocates exactly that many bytes per call
// (`malloc(need)`, so an overrun would be seen by the sanitizer trial) and reuses them
// for calls with lengths 1..40 (`enzyme_allocated, need, enzyme_tape, buf`), with
// `enzyme_nofree` on the reverse call. Oracles: the analytic gradient of
// f(x) = sum_i log(1 + x_i^2) * c_i + (sum_i x_i)^2 and finite differences.
#include "fz_test.h"

extern int enzyme_tape, enzyme_allocated, enzyme_nofree;
extern double __enzyme_augmentfwd_d(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern size_t __enzyme_augmentsize(void *, ...);

double f(const double *x, const double *c, int n) {
  double *t = malloc(sizeof(double) * n);
  double s = 0, m = 0;
  for (int i = 0; i < n; i++) {
    t[i] = log(1 + x[i] * x[i]);
    m += x[i];
  }
  for (int i = 0; i < n; i++) s += t[i] * c[i];
  free(t);
  return s + m * m;
}

#define NMAX 40
static double X[NMAX], C[NMAX];
static int Ncur;
static double eval(void *p) { (void)p; return f(X, C, Ncur); }

int main(void) {
  fz_seed(898);
  fz_fill(X, NMAX, -1.5, 1.5);
  fz_fill(C, NMAX, 0.2, 2.0);
  size_t need = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_const, enzyme_const);
  fz_check("augmentsize is positive", need > 0, 1, 0);
  unsigned char *buf = malloc(need);
  for (int n = 1; n <= NMAX; n += 3) {
    Ncur = n;
    double dx[NMAX] = {0};
    double y = __enzyme_augmentfwd_d((void *)f, enzyme_allocated, need, enzyme_tape, buf,
                                     enzyme_dup, X, dx, enzyme_const, C, enzyme_const, n);
    fz_check("augmented primal", y, f(X, C, n), 1e-13);
    __enzyme_reverse((void *)f, enzyme_allocated, need, enzyme_tape, buf, enzyme_nofree,
                     enzyme_dup, X, dx, enzyme_const, C, enzyme_const, n, 1.0);
    double m = 0;
    for (int i = 0; i < n; i++) m += X[i];
    for (int i = 0; i < n; i++) {
      double want = 2 * X[i] * C[i] / (1 + X[i] * X[i]) + 2 * m;
      fz_check("analytic", dx[i], want, 1e-12);
    }
    fz_check("FD of the last element", dx[n - 1], fz_fd_ptr(eval, NULL, &X[n - 1]), 1e-6);
  }
  free(buf);
  return fz_finish();
}
