// OPT: O0 O2
// An allocator registered with __enzyme_allocation_like whose deallocator takes the
// pointer alone ("-1"): the shadows of its memory are its own blocks (the same call,
// zeroed) and go back through its deallocator, as Enzyme makes them. The allocator
// writes a header with a magic number and counts live blocks; its deallocator aborts on
// a block it did not make (before alloc39 the shadows came from calloc and a shadow
// handed to the program's own deallocator aborted). Scratch memory freed inside, in
// reverse, forward and vector forward mode (enzyme_width 2), and a block that outlives
// the call in an object the caller owns, whose shadow the program releases. Oracles:
// central finite differences, the forward/reverse dot product, analytic tangents, and
// the allocator's counters.
#include "fz_test.h"
#include <stdio.h>

extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} w2;
extern w2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

enum { N = 8, MAGIC = 0x5ca1ab1e };

static long live, made;

__attribute__((noinline)) void *arena_get(size_t bytes) {
  long *h = malloc(bytes + 16);
  h[0] = MAGIC;
  h[1] = (long)bytes;
  live++;
  made++;
  return h + 2;
}

__attribute__((noinline)) void arena_put(void *p) {
  if (!p) return;
  long *h = (long *)p - 2;
  if (h[0] != MAGIC) {
    fprintf(stderr, "arena_put: %p is not an arena block\n", p);
    abort();
  }
  h[0] = 0;
  live--;
  free(h);
}

void *__enzyme_allocation_like[4] = {(void *)arena_get, (void *)0, (void *)"-1",
                                     (void *)arena_put};

double energy(const double *x) {
  double *t = arena_get(N * sizeof(double));
  for (int i = 0; i < N; i++) t[i] = sin(x[i]) * x[(i + 1) % N];
  double s = 0;
  for (int i = 0; i < N; i++) s += t[i] * t[(i + 3) % N];
  arena_put(t);
  return s;
}

typedef struct {
  double *buf;
} holder;

void fill(holder *h, const double *x) {
  h->buf = arena_get(N * sizeof(double));
  for (int i = 0; i < N; i++) h->buf[i] = x[i] * x[i];
}

int main(void) {
  fz_seed(1462);
  double x[N], dx[N], dx2[N], g[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
    dx2[i] = fz_uniform(-1, 1);
  }
  long live0 = live, made0 = made;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
  fz_check("reverse: live blocks back", live - live0, 0, 0);
  fz_check("reverse: the shadow from the allocator", made - made0, 2, 0);
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
  fz_check("forward: live blocks back", live - live0, 0, 0);
  fz_check("forward: the shadow from the allocator", made - made0, 2, 0);
  made0 = made;
  w2 t = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, enzyme_dup, x, dx, dx2);
  fz_check("width 2 lane 0", t.d[0], dot, 1e-10);
  fz_check("width 2 lane 1", t.d[1], dot2, 1e-10);
  fz_check("width 2: live blocks back", live - live0, 0, 0);
  fz_check("width 2: a shadow per lane from the allocator", made - made0, 3, 0);

  holder h = {0}, dh = {0};
  __enzyme_fwddiff((void *)fill, enzyme_dup, &h, &dh, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) fz_check("fill tangent (analytic)", dh.buf[i], 2 * x[i] * dx[i], 1e-12);
  fz_check("fill: primal and shadow live", live - live0, 2, 0);
  arena_put(h.buf);
  arena_put(dh.buf);
  holder hr = {0}, dhr = {0};
  double gr[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gr);
  arena_put(hr.buf);
  arena_put(dhr.buf);
  fz_check("all blocks released", live - live0, 0, 0);
  return fz_finish();
}
