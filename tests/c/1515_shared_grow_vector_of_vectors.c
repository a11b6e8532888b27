// OPT: O0
// rust45: one type-erased grow function shared by a vector of doubles and a vector of
// vectors, as Rust's `RawVecInner::grow_amortized` (which takes the element size) serves
// every `Vec` of a debug build. Type analysis is not context-sensitive: inside `grow` the
// block `realloc` returns is typed as both (doubles at every offset, the rows' `{cap,
// ptr, len}` headers), `Anything` where they disagree. The base binary took it for a
// block of floats: the forward sweep did not carry the rows' shadow headers into the
// grown shadow buffer (zeroed), row 0's shadow data pointer read null there, and the
// reverse sweep's adjoint of `rows[0][1]` was added through it (SIGSEGV; the Rust debug
// build of tests/rust/tests/rust44_loaded_headers.rs crashed the same way). Now bytes
// whose facts disagree move as bytes in both sweeps. Checks: `add_rows` (the rows vector
// grown 1 -> 4 -> 8 by C `realloc`, the caller keeping nothing of the old block, c/517's
// contract) against the analytic gradient and central finite differences, d/d rows[0]
// (read before and after the growth) against its formula, the outer shadow header
// mirrored; `add_values` (the doubles vector grown by the same `grow`) against its
// formula and FD.
#include "fz_test.h"
#include <stdlib.h>
#include <string.h>

enum { N = 5 };

typedef struct {
  size_t cap;
  void *ptr;
  size_t len;
} raw;

typedef struct {
  size_t cap;
  double *ptr;
  size_t len;
} vec;

/* Room for one more element of `elem` bytes: one function for every element type. */
__attribute__((noinline)) void grow(raw *v, size_t elem) {
  if (v->len == v->cap) {
    size_t nc = v->cap < 2 ? 4 : 2 * v->cap;
    v->ptr = realloc(v->ptr, nc * elem);
    v->cap = nc;
  }
}

static void push_row(raw *rows, double a) {
  grow(rows, sizeof(vec));
  vec *r = (vec *)rows->ptr + rows->len++;
  r->cap = 2, r->len = 2;
  r->ptr = malloc(2 * sizeof(double));
  r->ptr[0] = a * a, r->ptr[1] = a;
}

static void push_value(raw *acc, double a) {
  grow(acc, sizeof(double));
  ((double *)acc->ptr)[acc->len++] = a;
}

/* f = rows[0][0] rows[0][1] + sum over every row of sum sin, after pushing [a^2, a]. */
double add_rows(const double *x, raw *rows) {
  vec *r0 = rows->ptr;
  double first = r0->ptr[0] * r0->ptr[1];
  for (int i = 0; i < N; i++) push_row(rows, x[i]);
  double s = first;
  for (size_t k = 0; k < rows->len; k++) {
    vec *r = (vec *)rows->ptr + k;
    for (size_t j = 0; j < r->len; j++) s += sin(r->ptr[j]);
  }
  return s;
}

/* g = sum sin over the values pushed, x_i^2. */
double add_values(const double *x, raw *acc) {
  size_t n0 = acc->len;
  for (int i = 0; i < N; i++) push_value(acc, x[i] * x[i]);
  double s = 0;
  for (size_t k = n0; k < acc->len; k++) s += sin(((double *)acc->ptr)[k]);
  return s;
}

static raw one_row(double a, double b) {
  raw v = {1, malloc(sizeof(vec)), 1};
  vec *r = v.ptr;
  r->cap = 2, r->len = 2, r->ptr = malloc(2 * sizeof(double));
  r->ptr[0] = a, r->ptr[1] = b;
  return v;
}

static void free_rows(raw *v) {
  for (size_t k = 0; k < v->len; k++) free(((vec *)v->ptr)[k].ptr);
  free(v->ptr);
}

static raw one_value(double a) {
  raw v = {1, malloc(sizeof(double)), 1};
  *(double *)v.ptr = a;
  return v;
}

static double rows_primal(const double *x) {
  raw v = one_row(0.3, 0.4);
  double y = add_rows(x, &v);
  free_rows(&v);
  return y;
}

static double values_primal(const double *x) {
  raw v = one_value(0.3);
  double y = add_values(x, &v);
  free(v.ptr);
  return y;
}

static void check_fd(const char *what, double *x, const double *g, double (*f)(const double *)) {
  for (int i = 0; i < N; i++) {
    double h = 1e-6, x0 = x[i];
    x[i] = x0 + h;
    double fp = f(x);
    x[i] = x0 - h;
    double fm = f(x);
    x[i] = x0;
    fz_check(what, g[i], (fp - fm) / (2 * h), 1e-6);
  }
}

int main(void) {
  fz_seed(1515);
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.1, 1.2);

  raw rows = one_row(0.3, 0.4), drows = one_row(0.0, 0.0);
  void *old_shadow = drows.ptr; /* the caller's to free after a C `realloc` (c/517) */
  double *d0 = ((vec *)old_shadow)->ptr;
  __enzyme_autodiff((void *)add_rows, enzyme_dup, x, g, enzyme_dup, &rows, &drows);
  for (int i = 0; i < N; i++)
    fz_check("rows: gradient (analytic)", g[i], cos(x[i] * x[i]) * 2 * x[i] + cos(x[i]), 1e-12);
  check_fd("rows: gradient vs FD", x, g, rows_primal);
  fz_check("rows: outer length mirrored", (double)drows.len, (double)rows.len, 0);
  fz_check("rows: outer capacity mirrored", (double)drows.cap, (double)rows.cap, 0);
  vec *s0 = drows.ptr;
  fz_check("rows: row 0's shadow header moved with the block", s0->ptr == d0, 1, 0);
  fz_check("d/d rows[0][0] (analytic)", d0[0], 0.4 + cos(0.3), 1e-12);
  fz_check("d/d rows[0][1] (analytic)", d0[1], 0.3 + cos(0.4), 1e-12);
  free_rows(&rows);
  free_rows(&drows);
  free(old_shadow);

  double h[N] = {0};
  raw acc = one_value(0.3), dacc = one_value(0.0);
  __enzyme_autodiff((void *)add_values, enzyme_dup, x, h, enzyme_dup, &acc, &dacc);
  for (int i = 0; i < N; i++) fz_check("values: gradient (analytic)", h[i], cos(x[i] * x[i]) * 2 * x[i], 1e-12);
  check_fd("values: gradient vs FD", x, h, values_primal);
  fz_check("values: length mirrored", (double)dacc.len, (double)acc.len, 0);
  free(acc.ptr);
  free(dacc.ptr);
  return fz_finish();
}
