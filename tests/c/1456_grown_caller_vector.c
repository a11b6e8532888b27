// OPT: O0 O2
// rust41: a Rust-layout vector `{cap, ptr, len}` the caller passes `enzyme_dup`, grown
// inside the differentiated function through `__rust_realloc` (capacity 1 -> 4 -> 8),
// under the header-checking allocator of fz_rust_alloc.h (alloc40's, tests/c/1454): the shadow
// vector's length and capacity must mirror the primal's (integer stores into shadowed
// memory are mirrored), so the caller releases the grown shadow buffer with its own
// layout (`__rust_dealloc` aborts on another), and the caller's old shadow buffer,
// reallocated away with the primal's, is released when the derivative settles. The
// result reads only the pushed values: the adjoint of a value held before the call would
// end in that old shadow, which is a run-time stop (c/1457). Reverse
// mode (gradient against the analytic formula and central finite differences) and
// forward mode (tangent against the formula and the dot product with the gradient; the
// pushed values' tangents); the allocator's live count returns to zero.
#include "fz_test.h"
#include "fz_rust_alloc.h"
#include "fz_rust_vec.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);

enum { N = 7 };

/* f = sum sin of the pushed values x_i^2. */
double extend(const double *x, vec *acc) {
  size_t n0 = acc->len;
  for (int i = 0; i < N; i++) push(acc, x[i] * x[i]);
  double s = 0;
  for (size_t i = n0; i < acc->len; i++) s += sin(acc->ptr[i]);
  return s;
}

static void release(vec *v) { __rust_dealloc(v->ptr, v->cap * sizeof(double), 8); }

static double primal(const double *x) {
  vec v = one(0.3);
  double y = extend(x, &v);
  release(&v);
  return y;
}

int main(void) {
  fz_seed(1456);
  double x[N], g[N] = {0}, dx[N];
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.1, 1.3), dx[i] = fz_uniform(-1, 1);

  vec acc = one(0.3), dacc = one(0.0);
  __enzyme_autodiff((void *)extend, enzyme_dup, x, g, enzyme_dup, &acc, &dacc);
  fz_check("reverse: length mirrored", (double)dacc.len, (double)acc.len, 0);
  fz_check("reverse: capacity mirrored", (double)dacc.cap, (double)acc.cap, 0);
  fz_check("reverse: 8 values", (double)acc.len, N + 1, 0);
  fz_check("reverse: the held value's adjoint", dacc.ptr[0], 0, 0);
  for (int i = 0; i < N; i++) {
    fz_check("gradient (analytic)", g[i], cos(x[i] * x[i]) * 2 * x[i], 1e-12);
    double h = 1e-6, x0 = x[i];
    x[i] = x0 + h;
    double fp = primal(x);
    x[i] = x0 - h;
    double fm = primal(x);
    x[i] = x0;
    fz_check("gradient vs FD", g[i], (fp - fm) / (2 * h), 1e-6);
  }
  for (size_t i = 1; i < dacc.len; i++) fz_check("pushed values' adjoints consumed", dacc.ptr[i], 0, 0);
  release(&acc);
  release(&dacc);
  fz_check("reverse: blocks back", live, 0, 0);

  vec tacc = one(0.5);
  acc = one(0.3);
  double t = __enzyme_fwddiff((void *)extend, enzyme_dup, x, dx, enzyme_dup, &acc, &tacc);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i];
  fz_check("forward = <gradient, dx>", t, dot, 1e-10);
  fz_check("forward: length mirrored", (double)tacc.len, (double)acc.len, 0);
  fz_check("forward: capacity mirrored", (double)tacc.cap, (double)acc.cap, 0);
  fz_check("forward: tangent kept", tacc.ptr[0], 0.5, 0);
  for (int i = 0; i < N; i++) fz_check("pushed tangent (analytic)", tacc.ptr[1 + i], 2 * x[i] * dx[i], 1e-12);
  release(&acc);
  release(&tacc);
  fz_check("all blocks released", live, 0, 0);
  return fz_finish();
}
