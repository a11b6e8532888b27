// OPT: O0 O1 O2 O3
// A natural cubic spline through active knot values, built and evaluated inside the
// differentiated function: the tridiagonal system for the second derivatives solved by
// the Thomas algorithm on `malloc`'d arrays (forward elimination, back substitution),
// each query located by a hand-written binary search over the (inactive) knot abscissae,
// a `static` cache of the last interval found. Oracles: finite differences and
// linearity (the spline is linear in the knot values: f(y) = grad . y for a loss linear
// in the spline values).
#include "fz_test.h"

#define NK 8
#define NQ 5

static int last_hit = 0;

static int locate(const double *x, int n, double t) {
  if (t >= x[last_hit] && t < x[last_hit + 1]) return last_hit;
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (x[mid] > t) hi = mid; else lo = mid;
  }
  return last_hit = lo;
}

double spline_sum(const double *x, const double *y, int n, const double *q, int nq) {
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double)), *d = malloc(n * sizeof(double));
  double *m = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = 0; b[i] = 1; c[i] = 0; d[i] = 0; }
  for (int i = 1; i < n - 1; i++) {
    double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
    a[i] = h0; b[i] = 2 * (h0 + h1); c[i] = h1;
    d[i] = 6 * ((y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0);
  }
  for (int i = 1; i < n; i++) { /* Thomas: eliminate */
    double w = a[i] / b[i - 1];
    b[i] -= w * c[i - 1];
    d[i] -= w * d[i - 1];
  }
  m[n - 1] = d[n - 1] / b[n - 1];
  for (int i = n - 2; i >= 0; i--) m[i] = (d[i] - c[i] * m[i + 1]) / b[i];
  double s = 0.0;
  for (int k = 0; k < nq; k++) {
    int i = locate(x, n, q[k]);
    double h = x[i + 1] - x[i], t0 = x[i + 1] - q[k], t1 = q[k] - x[i];
    double v = m[i] * t0 * t0 * t0 / (6 * h) + m[i + 1] * t1 * t1 * t1 / (6 * h) +
               (y[i] / h - m[i] * h / 6) * t0 + (y[i + 1] / h - m[i + 1] * h / 6) * t1;
    s += v * (k + 1);
  }
  free(a); free(b); free(c); free(d); free(m);
  return s;
}

static double X[NK] = {0.0, 0.4, 1.1, 1.5, 2.3, 3.0, 3.2, 4.0};
static double Y[NK], Q[NQ] = {0.2, 1.2, 1.3, 2.9, 3.9};
static double eval(void *ctx) { (void)ctx; return spline_sum(X, Y, NK, Q, NQ); }

int main(void) {
  fz_seed(739);
  fz_fill(Y, NK, -1, 1);
  double dy[NK] = {0}, fd[NK];
  __enzyme_autodiff((void *)spline_sum, enzyme_const, X, enzyme_dup, Y, dy, enzyme_const, NK,
                    enzyme_const, Q, enzyme_const, NQ);
  fz_fd_grad(eval, NULL, Y, NK, fd);
  fz_check_arr("dy fd", dy, fd, NK, 1e-6);
  double lin = 0;
  for (int i = 0; i < NK; i++) lin += dy[i] * Y[i];
  fz_check("linearity grad . y == f(y)", lin, eval(NULL), 1e-11);
  return fz_finish();
}
