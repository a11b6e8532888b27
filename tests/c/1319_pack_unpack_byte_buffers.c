// OPT: O0 O2
// Active doubles moved through untyped bytes, as message-passing and I/O codes move
// them:
//  a) copied with memcpy, squared in place, and shifted by one double with an
//     overlapping memmove through `unsigned char *`;
//  b) records {int n; double v[3]; char tag;} built with `= {..}` (the padding after
//     `tag` filled by a memset) copied into a byte ring buffer at unaligned offsets and
//     out again.
// A byte copy loop (`char` loads and stores) over doubles lost the derivative silently in
// both modes; it is refused since c33 (tests/errors/byte_copy_loop_of_doubles.c). Copies
// through `uint32_t *` break strict aliasing and stay refused
// (tests/errors/ambiguous_int_access.c).
// Oracles: analytic gradients (the moves are identities), central differences, forward =
// reverse. Packing doubles after an int header into one message: tests/c/1320.
#include <stdint.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

#define N 5

double via_copies(const double *x, int n) {
  double a[N + 1];
  memcpy(a, x, n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] *= a[i];
  // shift right by one double, through byte pointers (the regions overlap)
  memmove((unsigned char *)a + sizeof(double), (unsigned char *)a, n * sizeof(double));
  a[0] = 1.0;
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i + 1] * x[i];
  return s;
}

typedef struct {
  int n;
  double v[3];
  char tag;
} rec;

#define RING 200
double via_ring(const double *x) {
  unsigned char ring[RING];
  size_t head = 3; // records start unaligned
  for (int k = 0; k < 3; k++) {
    rec r = {k, {x[k], x[k + 1] * x[k], exp(x[k + 2])}, 'r'};
    memcpy(ring + head + k * sizeof(rec), &r, sizeof r);
  }
  double s = 0;
  for (int k = 0; k < 3; k++) {
    rec r;
    memcpy(&r, ring + head + k * sizeof(rec), sizeof r);
    s += r.v[0] * r.v[1] - r.v[2] * (r.n + 1);
  }
  return s;
}

static double X[N];
static int nn = N;
static double fa(void *p) { return via_copies(p, nn); }
static double fb(void *p) { return via_ring(p); }

// a macro, not a helper taking the function: the hook needs the function itself
#define FWD_REV(what, f, dx)                                                               \
  do {                                                                                     \
    double v[N], t[N], x[N], dot = 0;                                                      \
    fz_fill(v, N, -1, 1);                                                                  \
    memcpy(t, v, sizeof t);                                                                \
    memcpy(x, X, sizeof x);                                                                \
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, nn);          \
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];                                       \
    fz_check(what, tan, dot, 1e-12);                                                       \
  } while (0)

int main(void) {
  fz_seed(1319);
  fz_fill(X, N, -1, 1);
  double dx[N], g[N], want[N];

  fz_zero(dx, N);
  __enzyme_autodiff((void *)via_copies, enzyme_dup, X, dx, enzyme_const, nn);
  for (int i = 0; i < N; i++) want[i] = 3 * X[i] * X[i];
  fz_check_arr("a copies analytic", dx, want, N, 1e-12);
  fz_fd_grad(fa, X, X, N, g);
  fz_check_arr("a copies fd", dx, g, N, 1e-6);
  FWD_REV("a forward = reverse . v", via_copies, dx);

  fz_zero(dx, N);
  __enzyme_autodiff((void *)via_ring, enzyme_dup, X, dx);
  fz_fd_grad(fb, X, X, N, g);
  fz_check_arr("b ring fd", dx, g, N, 1e-6);
  {
    double v[N], t[N], x[N], dot = 0;
    fz_fill(v, N, -1, 1);
    memcpy(t, v, sizeof t);
    memcpy(x, X, sizeof x);
    double tan = __enzyme_fwddiff((void *)via_ring, enzyme_dup, x, t);
    for (int i = 0; i < N; i++) dot += dx[i] * v[i];
    fz_check("b forward = reverse . v", tan, dot, 1e-12);
  }
  return fz_finish();
}
