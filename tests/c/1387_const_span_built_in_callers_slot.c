// OPT: O0 O1 O2 O3
// holders40: a callee given an `enzyme_const` table builds a `Span {lo, hi, scale}` of
// one of its rows in the caller's slot (returned by value through `sret`: two pointers
// computed by another call from the constant), and the caller reads the row's last and
// first elements back through accessors (`span_last`, `span_at`). The pointers in the
// slot are their own shadows (runtime activity in the callee); the caller must read
// them back under checks, as C++ reads the `reverse_iterator` `std::set::rbegin()`
// builds (tests/cxx/458): unchecked, the reverse sweep added the adjoints into the
// constant table. The helpers are `noinline`, so the calls stay at every level.
// Oracles: the analytic gradient, central differences, forward . v against the
// gradient, the table unchanged after both calls.
#include "fz_test.h"
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double data[3][4];
  int cols;
} Table;

typedef struct {
  const double *lo, *hi;
  double scale;
} Span;

#define NOINLINE __attribute__((noinline))

NOINLINE static const double *row_of(const Table *t, int r) { return t->data[r]; }
NOINLINE static Span span_of(const Table *t, int r) {
  Span s = {row_of(t, r), row_of(t, r) + t->cols, 2.0};
  return s;
}
NOINLINE static const double *span_last(const Span *s) { return s->hi - 1; }
NOINLINE static const double *span_at(const Span *s, int k) { return s->lo + k; }

// f = 2 t[1][3] x0^2 + t[1][0] x1 + sum_k t[2][k] x_k x_{(k+1)%4}
double model(const double *x, const Table *t) {
  Span s = span_of(t, 1);
  double f = s.scale * *span_last(&s) * x[0] * x[0] + *span_at(&s, 0) * x[1];
  Span u = span_of(t, 2);
  for (int k = 0; k < 4; k++) f += *span_at(&u, k) * x[k] * x[(k + 1) % 4];
  return f;
}

extern int enzyme_dup, enzyme_const;

int main(void) {
  Table t = {{{1, 2, 3, 4}, {0.5, -1.5, 2.5, 0.75}, {0.2, -0.3, 0.4, 1.2}}, 4};
  Table t0;
  memcpy(&t0, &t, sizeof t);
  double x[4] = {0.4, -0.7, 1.1, 0.3}, dx[4] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, &t);
  fz_check("enzyme_const table unchanged", memcmp(&t, &t0, sizeof t) == 0, 1, 0);
  const double *r1 = t0.data[1], *r2 = t0.data[2];
  double want[4] = {4 * r1[3] * x[0], r1[0], 0, 0};
  for (int k = 0; k < 4; k++) {
    want[k] += r2[k] * x[(k + 1) % 4];
    want[(k + 1) % 4] += r2[k] * x[k];
  }
  for (int k = 0; k < 4; k++) fz_check("d/dx analytic", dx[k], want[k], 1e-12);
  for (int k = 0; k < 4; k++) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = model(x, &t0);
    x[k] = xk - h;
    double fm = model(x, &t0);
    x[k] = xk;
    fz_check("d/dx finite differences", dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  double v[4] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < 4; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, &t);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const table unchanged (forward)", memcmp(&t, &t0, sizeof t) == 0, 1, 0);
  return fz_finish();
}
