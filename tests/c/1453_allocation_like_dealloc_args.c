// OPT: O0 O2
// __enzyme_allocation_like registrations whose deallocator takes more than the pointer
// (Enzyme's argument list: "-1" is the pointer, k is argument k of the allocation call):
// a tagged pool allocator whose deallocator takes the tag first, the pointer, then the
// pool ("2,-1,0": an integer and a pointer besides the freed pointer, which is not the
// first argument), and a sized allocator whose deallocator is told the size ("-1,0", as
// C++'s sized delete). Shadows are the allocators' own blocks (the same call, zeroed),
// released by the registered deallocator with the allocation's arguments: at once for
// scratch memory, through the runtime's shadow table for a block that outlives the call.
// Each deallocator checks the header its allocator wrote (magic, pool, tag, size) and
// aborts on a block it did not make or one released with other arguments (before
// alloc40 the shadows came from calloc and went to free: a shadow reaching the program's
// deallocator aborted). Oracles: central finite differences, the forward/reverse dot
// product, analytic tangents, the allocators' counters.
#include "fz_test.h"
#include <stdio.h>

extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} w2;
extern w2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

enum { N = 7, MAGIC = 0x1a40c };

typedef struct {
  long live, made;
} pool;

typedef struct {
  long magic;
  pool *owner;
  long tag;
  long pad;
} header;

__attribute__((noinline)) void *pool_get(pool *P, size_t bytes, int tag) {
  header *h = malloc(sizeof(header) + bytes);
  h->magic = MAGIC;
  h->owner = P;
  h->tag = tag;
  P->live++;
  P->made++;
  return h + 1;
}

__attribute__((noinline)) void pool_put(int tag, void *p, pool *P) {
  header *h = (header *)p - 1;
  if (h->magic != MAGIC || h->owner != P || h->tag != tag) {
    fprintf(stderr, "pool_put: %p is not a block of pool %p with tag %d\n", p, (void *)P, tag);
    abort();
  }
  h->magic = 0;
  P->live--;
  free(h);
}

static long sized_live, sized_made;

__attribute__((noinline)) void *sized_get(size_t n) {
  size_t *h = malloc(n + 16);
  h[0] = MAGIC;
  h[1] = n;
  sized_live++;
  sized_made++;
  return h + 2;
}

__attribute__((noinline)) void sized_put(void *p, size_t n) {
  size_t *h = (size_t *)p - 2;
  if (h[0] != MAGIC || h[1] != n) {
    fprintf(stderr, "sized_put: %p is not a block of %zu bytes\n", p, n);
    abort();
  }
  h[0] = 0;
  sized_live--;
  free(h);
}

void *__enzyme_allocation_like[4] = {(void *)pool_get, (void *)1, (void *)"2,-1,0",
                                     (void *)pool_put};
void *__enzyme_allocation_like_sized[4] = {(void *)sized_get, (void *)0, (void *)"-1,0",
                                           (void *)sized_put};

static pool P;

double energy(const double *x) {
  double *t = pool_get(&P, N * sizeof(double), 5);
  double *u = sized_get(N * sizeof(double));
  for (int i = 0; i < N; i++) t[i] = sin(x[i]) * x[(i + 1) % N];
  for (int i = 0; i < N; i++) u[i] = t[i] * t[(i + 3) % N];
  double s = 0;
  for (int i = 0; i < N; i++) s += u[i] * x[i];
  sized_put(u, N * sizeof(double));
  pool_put(5, t, &P);
  return s;
}

typedef struct {
  double *buf;
} holder;

/* The block outlives the call in the caller's object: its shadow goes in the shadow's. */
void fill(holder *h, const double *x) {
  h->buf = pool_get(&P, N * sizeof(double), 9);
  for (int i = 0; i < N; i++) h->buf[i] = x[i] * x[i];
}

/* A block made and freed inside a callee that is not inlined: the shadow table's path. */
__attribute__((noinline)) static double *make(const double *x) {
  double *b = pool_get(&P, N * sizeof(double), 3);
  for (int i = 0; i < N; i++) b[i] = cos(x[i]);
  return b;
}

double through_callee(const double *x) {
  double *b = make(x);
  double s = 0;
  for (int i = 0; i < N; i++) s += b[i] * x[(i + 2) % N];
  pool_put(3, b, &P);
  return s;
}

static void fd_check(const char *what, double (*f)(const double *), double *x, const double *g) {
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
  fz_seed(1453);
  double x[N], dx[N], dx2[N], g[N] = {0}, gc[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
    dx2[i] = fz_uniform(-1, 1);
  }
  long made0 = P.made, smade0 = sized_made;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
  fz_check("reverse: pool blocks back", P.live, 0, 0);
  fz_check("reverse: sized blocks back", sized_live, 0, 0);
  fz_check("reverse: the pool shadow from the pool", P.made - made0, 2, 0);
  fz_check("reverse: the sized shadow from the allocator", sized_made - smade0, 2, 0);
  fd_check("reverse gradient vs FD", energy, x, g);

  __enzyme_autodiff((void *)through_callee, enzyme_dup, x, gc);
  fz_check("callee: pool blocks back", P.live, 0, 0);
  fd_check("callee gradient vs FD", through_callee, x, gc);

  double dot = 0, dot2 = 0;
  for (int i = 0; i < N; i++) dot += g[i] * dx[i], dot2 += g[i] * dx2[i];
  fz_check("forward = <gradient, dx>", __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx), dot,
           1e-10);
  fz_check("forward: pool blocks back", P.live, 0, 0);
  fz_check("forward: sized blocks back", sized_live, 0, 0);
  made0 = P.made;
  w2 t = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, enzyme_dup, x, dx, dx2);
  fz_check("width 2 lane 0", t.d[0], dot, 1e-10);
  fz_check("width 2 lane 1", t.d[1], dot2, 1e-10);
  fz_check("width 2: pool blocks back", P.live, 0, 0);
  fz_check("width 2: a shadow per lane from the pool", P.made - made0, 3, 0);

  holder h = {0}, dh = {0};
  __enzyme_fwddiff((void *)fill, enzyme_dup, &h, &dh, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) fz_check("fill tangent (analytic)", dh.buf[i], 2 * x[i] * dx[i], 1e-12);
  fz_check("fill: primal and shadow live", P.live, 2, 0);
  pool_put(9, h.buf, &P);
  pool_put(9, dh.buf, &P);
  holder hr = {0}, dhr = {0};
  double gr[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gr);
  fz_check("fill (reverse): primal and shadow live", P.live, 2, 0);
  pool_put(9, hr.buf, &P);
  pool_put(9, dhr.buf, &P);
  fz_check("all blocks released", P.live, 0, 0);
  return fz_finish();
}
