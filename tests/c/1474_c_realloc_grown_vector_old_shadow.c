// OPT: O0 O2 O3
// rust43: tests/c/1457's vector `{cap, ptr, len}` passed `enzyme_dup` and grown inside
// (capacity 1 -> 4 -> 8), by C `realloc` instead of `__rust_realloc`, and the result
// reads the value it held before the call: d f / d acc[0] = cos(0.3). C's contract
// (tests/c/517 (e)): the block the caller passed is the caller's, and so is its shadow,
// which the caller keeps (a C program can hold the old pointer), frees, and where the
// adjoints of the values the block held arrive; the caller's shadow header gets the new
// shadow buffer and, mirrored, the primal's new length and capacity (`mirrored_ints`).
// The caller reading the new shadow would see 0 there: this program keeps the old one.
// Reverse mode: d f / d x against the formula and central differences, d f / d acc[0]
// in the kept old shadow against the formula and central differences, the pushed
// values' adjoints consumed. Forward mode: the tangent vector grows beside the primal,
// keeps the held value's tangent, holds the pushed values' tangents (formula), and the
// tangent equals <gradient, direction> (dot-product identity). Every buffer is freed
// once by the caller (glibc aborts a double free).
#include "fz_test.h"
#define FZ_VEC_C_ALLOC
#include "fz_rust_vec.h"

extern double __enzyme_fwddiff(void *, ...);

enum { N = 7 };

/* f = sum sin(acc) after pushing x_i^2: the held value acc[0] counts. */
double extend(const double *x, vec *acc) {
  for (int i = 0; i < N; i++) push(acc, x[i] * x[i]);
  double s = 0;
  for (size_t i = 0; i < acc->len; i++) s += sin(acc->ptr[i]);
  return s;
}

static double x[N], held = 0.3;
static double primal(void *c) {
  (void)c;
  vec v = one(held);
  double y = extend(x, &v);
  free(v.ptr);
  return y;
}

int main(void) {
  fz_seed(1474);
  double g[N] = {0}, dx[N];
  for (int i = 0; i < N; i++) x[i] = fz_uniform(0.1, 1.3), dx[i] = fz_uniform(-1, 1);

  vec acc = one(held), dacc = one(0.0);
  double *old = dacc.ptr;
  __enzyme_autodiff((void *)extend, enzyme_dup, x, g, enzyme_dup, &acc, &dacc);
  fz_check("reverse: 8 values", (double)acc.len, N + 1, 0);
  fz_check("reverse: length mirrored", (double)dacc.len, (double)acc.len, 0);
  fz_check("reverse: capacity mirrored", (double)dacc.cap, (double)acc.cap, 0);
  fz_check("reverse: a new shadow buffer", dacc.ptr != old, 1, 0);
  for (int i = 0; i < N; i++) {
    fz_check("d f / d x (analytic)", g[i], cos(x[i] * x[i]) * 2 * x[i], 1e-12);
    fz_check("d f / d x (FD)", g[i], fz_fd_ptr(primal, NULL, &x[i]), 1e-6);
  }
  fz_check("d f / d acc[0] in the old shadow (analytic)", old[0], cos(held), 1e-12);
  fz_check("d f / d acc[0] in the old shadow (FD)", old[0], fz_fd_ptr(primal, NULL, &held), 1e-6);
  for (size_t i = 0; i < dacc.len; i++) fz_check("new shadow's adjoints consumed", dacc.ptr[i], 0, 0);
  free(acc.ptr);
  free(dacc.ptr);
  free(old);

  acc = one(held);
  vec tacc = one(0.5);
  double t = __enzyme_fwddiff((void *)extend, enzyme_dup, x, dx, enzyme_dup, &acc, &tacc);
  double dot = cos(held) * 0.5;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i];
  fz_check("forward = <gradient, (dx, 0.5)>", t, dot, 1e-10);
  fz_check("forward: length mirrored", (double)tacc.len, (double)acc.len, 0);
  fz_check("forward: capacity mirrored", (double)tacc.cap, (double)acc.cap, 0);
  fz_check("forward: the held value's tangent kept", tacc.ptr[0], 0.5, 0);
  for (int i = 0; i < N; i++)
    fz_check("forward: pushed tangent (analytic)", tacc.ptr[1 + i], 2 * x[i] * dx[i], 1e-12);
  free(acc.ptr);
  free(tacc.ptr);
  return fz_finish();
}
