// OPT: O0 O1 O2 O3
// Pointers carried through uintptr_t, made pointer operations before differentiation
// (ferrozyme-transform/src/intptr.rs): a byte offset added to (uintptr_t)x, a pointer
// difference taken in one array and added back to another, a scratch buffer carved out
// of malloc'ed memory by rounding its address up to 16 (`(a + 15) & ~15`, and to 8), and
// a pointer stored in a struct copied field by field through integers. Oracles: central
// finite differences of the primal, and forward mode against reverse mode (dot product
// identity); both modes at every level. The forms that stay rejected are in
// tests/errors/audit_inttoptr*.c.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 6
#define NOINLINE __attribute__((noinline))

// x + 8*k bytes, through integers.
NOINLINE double byte_offsets(const double *x, int n) {
  double s = 0;
  for (int k = 0; k + 1 < n; k++) {
    const double *q = (const double *)((uintptr_t)x + 8 * (uintptr_t)(k + 1));
    s += q[0] * sin(x[k]);
  }
  return s;
}

// (uintptr_t)y + ((uintptr_t)&x[2] - (uintptr_t)x): y + 16 bytes.
NOINLINE double difference_added_back(const double *x, const double *y) {
  uintptr_t d = (uintptr_t)(x + 2) - (uintptr_t)x;
  const double *r = (const double *)((uintptr_t)y + d);
  return r[0] * x[2] + r[1] * r[1];
}

// A scratch area aligned by hand inside malloc'ed memory (one past the start, rounded
// up to A bytes).
#define ALIGNED_SCRATCH(name, A)                                                 \
  NOINLINE double name(const double *x, int n) {                                 \
    char *raw = (char *)malloc((size_t)n * sizeof(double) + 31);                 \
    double *buf = (double *)(((uintptr_t)raw + 1 + ((A)-1)) & ~(uintptr_t)((A)-1)); \
    for (int i = 0; i < n; i++) buf[i] = x[i] * x[i];                            \
    double s = 0;                                                                \
    for (int i = 0; i < n; i++) s += buf[i] * cos(buf[(i + 1) % n]);             \
    free(raw);                                                                   \
    return s;                                                                    \
  }
ALIGNED_SCRATCH(aligned_scratch16, 16)
ALIGNED_SCRATCH(aligned_scratch8, 8)

struct view { const double *data; long len; };

// A struct holding a pointer copied byte for byte (memcpy of 8 bytes = an integer copy).
NOINLINE double copied_view(const struct view *v) {
  struct view w;
  memcpy(&w, v, sizeof w);
  double s = 0;
  for (long i = 0; i < w.len; i++) s += w.data[i] * w.data[i] * w.data[i];
  return s;
}

static double f(const double *x, const double *y) {
  struct view v = {y, N};
  return byte_offsets(x, N) + difference_added_back(x, y) + aligned_scratch16(x, N) +
         aligned_scratch8(y, N) + copied_view(&v);
}

static double *gx, *gy;
static double eval(void *ctx) { (void)ctx; return f(gx, gy); }

int main(void) {
  fz_seed(640);
  double x[N], y[N], dx[N] = {0}, dy[N] = {0}, tx[N], ty[N];
  fz_fill(x, N, -1, 1);
  fz_fill(y, N, -1, 1);
  fz_fill(tx, N, -1, 1);
  fz_fill(ty, N, -1, 1);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  gx = x;
  gy = y;
  for (int i = 0; i < N; i++) {
    fz_check("dx fd", dx[i], fz_fd_ptr(eval, 0, &x[i]), 1e-6);
    fz_check("dy fd", dy[i], fz_fd_ptr(eval, 0, &y[i]), 1e-6);
  }
  double dir = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty);
  double dot = 0;
  for (int i = 0; i < N; i++) dot += dx[i] * tx[i] + dy[i] * ty[i];
  fz_check("forward . t == reverse . t", dir, dot, 1e-10);
  return fz_finish();
}
