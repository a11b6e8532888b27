// OPT: O0 O2
// static45: tables of constants kept in `static double *` buffers grown with `realloc`
// inside the differentiated functions and reused by the next call, read before anything
// writes them: one grown through a helper given the table (as a constructor is given
// `this`), one grown directly into a static pointer, one first built by a forward
// derivative. The reverse sweeps accumulate adjoints in the tables' shadows, which live on
// with the tables; a forward derivative after them read those adjoints as tangents (the
// base binary: f's forward check off by sum adjoint * tangent). Orders: f reverse,
// reverse, forward, reverse growing both tables, reverse, forward; g forward (building
// its table), reverse, reverse, forward. Oracles: analytic gradient, central
// differences, forward = reverse.
#include <math.h>
#include <stdlib.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double *c;
  int have;
} Table;
static Table coef; /* c_k = 1 + k / 4 */
static Table cube; /* q_k = 1 / 2 + k / 10, first built by a forward derivative */
static double *scale; /* s_k = 2 - k / 8 */
static int nscale;

/* Grows table t to n entries a + b k (two call sites: not specialized to one table). */
__attribute__((noinline)) static void grow(Table *t, int n, double a, double b) {
  if (n <= t->have) return;
  t->c = realloc(t->c, n * sizeof(double));
  for (int k = t->have; k < n; k++) t->c[k] = a + b * k;
  t->have = n;
}

/* f = sum_i c_i x_i^2 + s_i sin(x_i) */
double f(const double *x, int n) {
  grow(&coef, n, 1.0, 0.25);
  if (n > nscale) {
    scale = realloc(scale, n * sizeof(double));
    for (int k = nscale; k < n; k++) scale[k] = 2.0 - 0.125 * k;
    nscale = n;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += coef.c[i] * x[i] * x[i] + scale[i] * sin(x[i]);
  return s;
}

/* g = sum_i q_i x_i^3 */
double g(const double *x, int n) {
  grow(&cube, n, 0.5, 0.1);
  double s = 0;
  for (int i = 0; i < n; i++) s += cube.c[i] * x[i] * x[i] * x[i];
  return s;
}

#define N 6
static double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.5};
static int n_now;
static double eval_f(void *ctx) { (void)ctx; return f(x, n_now); }

static void reverse_f(int n, double *dx) {
  for (int i = 0; i < N; i++) dx[i] = 0;
  n_now = n;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    double c = 1.0 + 0.25 * i, s = 2.0 - 0.125 * i;
    fz_check("f analytic", dx[i], 2 * c * x[i] + s * cos(x[i]), 1e-10);
    fz_check("f central differences", dx[i], fz_fd_ptr(eval_f, 0, &x[i]), 1e-6);
  }
}

static void forward_f(int n, const double *dx) {
  for (int i = 0; i < n; i++) {
    double v[N] = {0};
    v[i] = 1;
    fz_check("f fwd = rev", __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n), dx[i], 1e-10);
  }
}

static void forward_g(int n) {
  for (int i = 0; i < n; i++) {
    double v[N] = {0};
    v[i] = 1;
    double q = 0.5 + 0.1 * i;
    fz_check("g fwd analytic", __enzyme_fwddiff((void *)g, enzyme_dup, x, v, enzyme_const, n), 3 * q * x[i] * x[i], 1e-10);
  }
}

static void reverse_g(int n) {
  double dx[N] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) fz_check("g analytic", dx[i], 3 * (0.5 + 0.1 * i) * x[i] * x[i], 1e-10);
}

int main(void) {
  double dx[N];
  reverse_f(4, dx);
  reverse_f(4, dx);
  forward_f(4, dx);
  reverse_f(6, dx); /* both tables grow inside the derivative */
  reverse_f(6, dx);
  forward_f(6, dx);
  forward_g(4); /* g's table is first built by a forward derivative */
  reverse_g(4);
  reverse_g(4);
  forward_g(4);
  return fz_finish();
}
