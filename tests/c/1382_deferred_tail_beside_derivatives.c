// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// The functions the AD pass leaves alone get the vectorization tail clang's first
// compile held back (ferrozyme-cli deferred.rs, issue 18: the loop vectorizer, SLP, the
// unroller and their cleanup, while the derivative code is frozen; cg37 measured running
// the cleanup only where a held-back pass changed a function, cc33's stepwise tail, and
// dropped it again for its peak memory). Every kind sits beside differentiated code: a
// vectorizable axpy and a reduction (changed by the loop vectorizer; with -ffast-math the
// reduction too), a straight-line block of four lanes (SLP), a loop of libm calls, a
// function none of them changes, and the same dot product called both directly
// (untouched) and from the differentiated function (its clone is optimized with the
// derivative). Oracles: exact values for the
// untouched functions (small integers and halves, exact in any summation order), central
// finite differences for the gradient.
#include "fz_test.h"

#define N 37
#define NOINLINE __attribute__((noinline))

NOINLINE void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

NOINLINE double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

NOINLINE void lanes4(double *o, const double *a, const double *b) {
  o[0] = a[0] * b[0] + 1.0;
  o[1] = a[1] * b[1] + 1.0;
  o[2] = a[2] * b[2] + 1.0;
  o[3] = a[3] * b[3] + 1.0;
}

NOINLINE double with_calls(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += floor(x[i] + 0.5);
  return s;
}

NOINLINE int plain(int a, int b) { return a * 3 + b; }

/* Differentiated: the dot product's clone, a loop with sin, and lanes of its own. */
NOINLINE double objective(const double *x, int n) {
  double q[4];
  for (int k = 0; k < 4; k++) q[k] = x[k] * x[(k + 1) % n] + 0.5 * x[k];
  double s = dot(x, x, n) * 0.01;
  for (int i = 0; i < n; i++) s += 0.1 * sin(x[i] * (1.0 + 0.01 * i));
  return s + q[0] * q[1] + q[2] * q[3];
}

static double X[N];
static double eval(void *c) {
  (void)c;
  return objective(X, N);
}

int main(void) {
  double x[N], y[N], o[4];
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 1.0;
  }
  axpy(y, x, 0.5, N);
  for (int i = 0; i < N; i++) fz_check("axpy", y[i], 1.0 + 0.5 * i, 0);
  /* sum of i * (1 + i/2) for i < N, exact in doubles */
  fz_check("dot", dot(x, y, N), (N * (N - 1) / 2) + 0.5 * ((N - 1) * N * (2 * N - 1) / 6), 0);
  lanes4(o, x + 1, y + 1);
  for (int k = 0; k < 4; k++) fz_check("lanes4", o[k], (k + 1) * (1.0 + 0.5 * (k + 1)) + 1.0, 0);
  for (int i = 0; i < N; i++) x[i] = i + 0.25;
  fz_check("with_calls", with_calls(x, N), (double)(N * (N - 1) / 2), 0);
  fz_check("plain", plain(5, 2), 17, 0);

  fz_seed(1382);
  for (int t = 0; t < 2; t++) {
    double dx[N] = {0}, fd[N];
    fz_fill(X, N, -0.9, 0.9);
    __enzyme_autodiff((void *)objective, enzyme_dup, X, dx, enzyme_const, N);
    fz_fd_grad(eval, NULL, X, N, fd);
    fz_check_arr("d objective / dx", dx, fd, N, 1e-6);
  }
  return fz_finish();
}
