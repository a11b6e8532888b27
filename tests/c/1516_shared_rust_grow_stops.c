// OPT: O0
// EXPECT-RUNTIME-ERROR: whose elements hold floats beside pointers or integers
// rust45: c/1515's grow function shared by a vector of doubles and a vector of vectors,
// growing the blocks by `__rust_realloc` (a Rust `Vec`'s contract: the caller cannot keep
// the old block, whose shadow the derivative adopts and releases when it settles). Inside
// the shared `grow` type analysis cannot tell the rows' headers from doubles (`Anything`):
// the held values' adjoints moved back into the old shadow could be neither checked nor
// told from shadow pointers, as for a `Vec<(f64, Box<f64>)>` (rust44), so the
// reallocation of the caller's buffer is a run-time stop naming what to do (reserve the
// capacity beforehand). The session's base binary crashed here (SIGSEGV: row 0's shadow
// data pointer read null from the grown shadow buffer, which the forward sweep had not
// filled). `cargo ferrozyme` inlines Rust's own type-erased grow (`RawVecInner`), where
// each `Vec` has its own type and the derivative is right
// (tests/rust/tests/rust44_loaded_headers.rs, debug and release).
#include "fz_test.h"
#include "fz_rust_alloc.h"

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

__attribute__((noinline)) void grow(raw *v, size_t elem) {
  if (v->len == v->cap) {
    size_t nc = v->cap < 2 ? 4 : 2 * v->cap;
    v->ptr = __rust_realloc(v->ptr, v->cap * elem, 8, nc * elem);
    v->cap = nc;
  }
}

/* f = rows[0][0] rows[0][1] + sum over the rows pushed, [a^2, a], of sum sin. */
double add_rows(const double *x, raw *rows) {
  vec *r0 = rows->ptr;
  double s = r0->ptr[0] * r0->ptr[1];
  for (int i = 0; i < N; i++) {
    grow(rows, sizeof(vec));
    vec *r = (vec *)rows->ptr + rows->len++;
    r->cap = 2, r->len = 2;
    r->ptr = __rust_alloc(2 * sizeof(double), 8);
    r->ptr[0] = x[i] * x[i], r->ptr[1] = x[i];
    s += sin(r->ptr[0]) + sin(r->ptr[1]);
  }
  return s;
}

/* The same `grow` for a vector of doubles: g = sum sin over the values pushed. */
double add_values(const double *x, raw *acc) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    grow(acc, sizeof(double));
    double *p = (double *)acc->ptr + acc->len++;
    *p = x[i] * x[i];
    s += sin(*p);
  }
  return s;
}

static raw one_row(double a, double b) {
  raw v = {1, __rust_alloc(sizeof(vec), 8), 1};
  vec *r = v.ptr;
  r->cap = 2, r->len = 2, r->ptr = __rust_alloc(2 * sizeof(double), 8);
  r->ptr[0] = a, r->ptr[1] = b;
  return v;
}

int main(void) {
  fz_seed(1516);
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.1, 1.2);
  raw acc = {0, (void *)8, 0}, dacc = {0, (void *)8, 0};
  if (fz_uniform(0, 1) > 2) /* never: add_values is only here to share `grow` */
    __enzyme_autodiff((void *)add_values, enzyme_dup, x, g, enzyme_dup, &acc, &dacc);
  raw rows = one_row(0.3, 0.4), drows = one_row(0.0, 0.0);
  __enzyme_autodiff((void *)add_rows, enzyme_dup, x, g, enzyme_dup, &rows, &drows);
  /* Not reached when the stop works (the analytic values would be checked here). */
  for (int i = 0; i < N; i++)
    fz_check("rows: gradient (analytic)", g[i], cos(x[i] * x[i]) * 2 * x[i] + cos(x[i]), 1e-12);
  fz_check("d/d rows[0][0] (analytic)", ((vec *)drows.ptr)->ptr[0], 0.4 + cos(0.3), 1e-12);
  return fz_finish();
}
