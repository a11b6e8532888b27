// OPT: O0 O2
// Rust's global allocator entry points as rustc's allocator shim defines them
// (`__rust_alloc(size, align)`, `__rust_alloc_zeroed`, `__rust_realloc(ptr, old, align,
// new)`, `__rust_dealloc(ptr, size, align)`), here a counting, header-checking
// `#[global_allocator]` written in C: the header holds a magic number, the size and the
// alignment, and `__rust_dealloc` aborts on a block it did not make or one released with
// another layout. Shadows of Rust heap memory are the global allocator's own blocks,
// released by `__rust_dealloc` with the primal's size and alignment (alloc40, as Enzyme
// does for Rust): scratch blocks freed inside (reverse: at once; forward and width 2 with
// the primal), a block grown by `__rust_realloc` (its shadow: `__rust_alloc_zeroed` of
// the new size; the kept adjoints move back over the old size the call states, not
// `malloc_usable_size`, which a non-C block cannot answer), and a block that outlives
// the call in the caller's object (the runtime's shadow table keeps its size and
// alignment). Before alloc40 the shadows came from calloc and went to free. Oracles:
// central finite differences, the forward/reverse dot product, analytic tangents, the
// allocator's counters.
#include "fz_test.h"
#include "fz_rust_alloc.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} w2;
extern w2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

enum { N = 6 };

/* Scratch blocks of each kind, one grown. */
double energy(const double *x) {
  size_t bytes = N * sizeof(double);
  double *t = __rust_alloc(bytes, 8);
  for (int i = 0; i < N; i++) t[i] = sin(x[i]) * x[(i + 1) % N];
  t = __rust_realloc(t, bytes, 8, 2 * bytes);
  for (int i = 0; i < N; i++) t[N + i] = t[i] * x[i];
  double *z = __rust_alloc_zeroed(bytes, 16);
  for (int i = 0; i < N; i++) z[i] += t[N + i] * t[(i + 2) % N];
  double s = 0;
  for (int i = 0; i < N; i++) s += z[i] + t[N + (i + 1) % N];
  __rust_dealloc(z, bytes, 16);
  __rust_dealloc(t, 2 * bytes, 8);
  return s;
}

typedef struct {
  double *buf;
} holder;

/* The block outlives the call in the caller's object. */
void fill(holder *h, const double *x) {
  h->buf = __rust_alloc(N * sizeof(double), 8);
  for (int i = 0; i < N; i++) h->buf[i] = x[i] * x[i];
}

int main(void) {
  fz_seed(1454);
  double x[N], dx[N], dx2[N], g[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
    dx2[i] = fz_uniform(-1, 1);
  }
  long made0 = made;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
  fz_check("reverse: blocks back", live, 0, 0);
  // t, its reallocation, z: three primal blocks and three shadows.
  fz_check("reverse: the shadows from the global allocator", made - made0, 6, 0);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, x0 = x[i];
    x[i] = x0 + h;
    double fp = energy(x);
    x[i] = x0 - h;
    double fm = energy(x);
    x[i] = x0;
    fz_check("reverse gradient vs FD", g[i], (fp - fm) / (2 * h), 1e-6);
  }
  double dot = 0, dot2 = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i], dot2 += g[i] * dx2[i];
  made0 = made;
  fz_check("forward = <gradient, dx>", __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx), dot,
           1e-10);
  fz_check("forward: blocks back", live, 0, 0);
  fz_check("forward: the shadows from the global allocator", made - made0, 6, 0);
  w2 t = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, enzyme_dup, x, dx, dx2);
  fz_check("width 2 lane 0", t.d[0], dot, 1e-10);
  fz_check("width 2 lane 1", t.d[1], dot2, 1e-10);
  fz_check("width 2: blocks back", live, 0, 0);

  holder h = {0}, dh = {0};
  __enzyme_fwddiff((void *)fill, enzyme_dup, &h, &dh, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) fz_check("fill tangent (analytic)", dh.buf[i], 2 * x[i] * dx[i], 1e-12);
  fz_check("fill: primal and shadow live", live, 2, 0);
  __rust_dealloc(h.buf, N * sizeof(double), 8);
  __rust_dealloc(dh.buf, N * sizeof(double), 8);
  holder hr = {0}, dhr = {0};
  double gr[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gr);
  fz_check("fill (reverse): primal and shadow live", live, 2, 0);
  __rust_dealloc(hr.buf, N * sizeof(double), 8);
  __rust_dealloc(dhr.buf, N * sizeof(double), 8);
  fz_check("all blocks released", live, 0, 0);
  return fz_finish();
}
