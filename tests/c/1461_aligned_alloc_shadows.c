// OPT: O0 O2 O3
// Shadows of aligned heap memory (aligned_alloc, posix_memalign, memalign) are as aligned
// as the primal: the code may move the memory with aligned vector instructions (here
// `__builtin_assume_aligned(p, 64)` tells the compiler it may), which fault on a shadow
// that is only 16-byte aligned, as calloc's are (what Ferrozyme gave them before
// alloc39). Scratch buffers freed inside (reverse, forward and vector forward mode), and
// buffers that outlive the call in an object the caller owns, whose shadows the program
// frees with free(). Oracles: central finite differences, the forward/reverse dot
// product, analytic tangents, and the shadow pointers' alignment itself.
#include "fz_test.h"
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

extern double __enzyme_fwddiff(void *, ...);
typedef struct {
  double d[2];
} w2;
extern w2 __enzyme_fwddiff_w2(void *, ...);
extern int enzyme_width;

enum { N = 25 };

static double weigh(double *restrict a, const double *restrict b) {
  double *pa = __builtin_assume_aligned(a, 64);
  const double *pb = __builtin_assume_aligned(b, 64);
  double s = 0;
  for (int i = 0; i < N; i++) s += pa[i] * pb[i];
  return s;
}

double energy(const double *x) {
  double *a = aligned_alloc(64, N * sizeof(double));
  double *b = NULL;
  if (posix_memalign((void **)&b, 64, N * sizeof(double))) return 0;
  double *c = memalign(64, N * sizeof(double));
  double *pa = __builtin_assume_aligned(a, 64), *pb = __builtin_assume_aligned(b, 64);
  double *pc = __builtin_assume_aligned(c, 64);
  for (int i = 0; i < N; i++) {
    pa[i] = sin(x[i]) * x[(i + 3) % N];
    pb[i] = x[i] * x[i];
  }
  for (int i = 0; i < N; i++) pc[i] = pa[i] + pb[(i + 1) % N];
  double s = weigh(a, b) + weigh(c, a);
  free(a);
  free(b);
  free(c);
  return s;
}

typedef struct {
  double *buf, *buf2;
} holder;

void fill(holder *h, const double *x) {
  h->buf = aligned_alloc(64, (N + 3) * sizeof(double));
  if (posix_memalign((void **)&h->buf2, 64, (N + 5) * sizeof(double))) return;
  double *p = __builtin_assume_aligned(h->buf, 64), *q = __builtin_assume_aligned(h->buf2, 64);
  for (int i = 0; i < N; i++) {
    p[i] = x[i] * x[i];
    q[i] = 3 * x[i];
  }
}

static const double *gx;
static double energy_at(void) { return energy(gx); }

int main(void) {
  fz_seed(1461);
  double x[N], dx[N], dx2[N], g[N] = {0};
  for (int i = 0; i < N; i++) {
    x[i] = fz_uniform(-1, 1);
    dx[i] = fz_uniform(-1, 1);
    dx2[i] = fz_uniform(-1, 1);
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g);
  gx = x;
  for (int i = 0; i < N; i += 5) {
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
  fz_check("forward = <gradient, dx>", __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx), dot,
           1e-10);
  w2 t = __enzyme_fwddiff_w2((void *)energy, enzyme_width, 2, enzyme_dup, x, dx, dx2);
  fz_check("width 2 lane 0", t.d[0], dot, 1e-10);
  fz_check("width 2 lane 1", t.d[1], dot2, 1e-10);

  // Several at once (a 16-byte aligned allocator would be 64-byte aligned by chance
  // for one of them).
  holder h[4] = {{0}}, dh[4] = {{0}};
  void *pads[4];
  for (int r = 0; r < 4; r++) {
    pads[r] = malloc(8 + 16 * r);  // moves the heap's next free chunk off 64 bytes
    __enzyme_fwddiff((void *)fill, enzyme_dup, &h[r], &dh[r], enzyme_dup, x, dx);
    fz_check("aligned_alloc shadow 64-byte aligned", (double)((uintptr_t)dh[r].buf % 64), 0, 0);
    fz_check("posix_memalign shadow 64-byte aligned", (double)((uintptr_t)dh[r].buf2 % 64), 0, 0);
  }
  for (int i = 0; i < N; i++) {
    fz_check("fill tangent (analytic)", dh[3].buf[i], 2 * x[i] * dx[i], 1e-12);
    fz_check("fill tangent 2 (analytic)", dh[3].buf2[i], 3 * dx[i], 1e-12);
  }
  for (int r = 0; r < 4; r++) {
    free(pads[r]);
    free(h[r].buf);
    free(h[r].buf2);
    free(dh[r].buf);
    free(dh[r].buf2);
  }
  holder hr = {0}, dhr = {0};
  double gr[N] = {0};
  __enzyme_autodiff((void *)fill, enzyme_dup, &hr, &dhr, enzyme_dup, x, gr);
  fz_check("reverse: aligned_alloc shadow aligned", (double)((uintptr_t)dhr.buf % 64), 0, 0);
  fz_check("reverse: posix_memalign shadow aligned", (double)((uintptr_t)dhr.buf2 % 64), 0, 0);
  free(hr.buf);
  free(hr.buf2);
  free(dhr.buf);
  free(dhr.buf2);
  return fz_finish();
}
