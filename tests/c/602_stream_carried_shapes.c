// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// Stencil loops whose clamped last iterations the transform peels before
// differentiating, and whose reverse neighbour updates it then carries as streams
// (issue 14, bruss7; crates/ferrozyme-transform/src/peel.rs, affine_index.rs,
// streams/mod.rs). Peeling: the clamp `min(j + k, n - 1)` is the identity on every iteration
// but the last k, which move to straight-line copies after the loop. Streams: in the
// reverse loop the adds into one shadow at offsets c - 1, c, c + 1 keep the sums of the
// cells not yet left behind in registers (only with `reassoc`, a `restrict` input, and
// no plain access of that shadow in the loop). Shapes: 1-D clamped, 2-D 5-point u/v (the
// Brusselator's inner loop), a signed `smin` clamp, a clamped loop followed by one
// running down over the interior (its reverse reads the index from the tape: no
// stream there); without reassoc
// (`float_control(precise, on)`: no streams, still peeled): a wide +-2 stencil (peeled
// twice), interleaved u/v; a carried sum and last iterate used after the loop (uses
// after the loop read the peeled copy). Near misses (results must stay right): no
// `restrict` (no stream), an in-place update (the loop zeroes the shadow it streams
// into: no stream), a clamp by a run-time bound, a clamp three iterations deep, a loop
// of three iterations, a clamped loaded index (none peeled). Built with -ffast-math at
// O0..O3 (at O2/O3 the vectorizers are on, as users build).
// Oracle: central finite differences (fz_fd_ptr), every coordinate.
#include "fz_test.h"

enum { N = 37, M = 9 };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
static volatile int g_n = N; /* a bound known only at run time */
static int g_idx[N];

void clamped1d(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    double l = x[clampi(i - 1, N)] + x[clampi(i + 1, N)] - 2.0 * x[i];
    out[i] = a * l + x[i] * x[i] * x[i];
  }
}

void wide1d(double *restrict out, const double *restrict x, double a) {
#pragma float_control(precise, on)
  for (int i = 0; i < N; i++) {
    double l = -x[clampi(i - 2, N)] + 16.0 * x[clampi(i - 1, N)] - 30.0 * x[i] +
               16.0 * x[clampi(i + 1, N)] - x[clampi(i + 2, N)];
    out[i] = a * l + x[i] * x[i];
  }
}

/* 2-D 5-point, u and v in two blocks of M x M, Brusselator-like reaction */
void clamped2d(double *restrict out, const double *restrict x, double a) {
  const double *u = x, *v = x + M * M;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      int ip = clampi(i + 1, M), im = clampi(i - 1, M), jp = clampi(j + 1, M),
          jm = clampi(j - 1, M);
      double uij = u[M * i + j], vij = v[M * i + j];
      double lu = u[M * im + j] + u[M * ip + j] + u[M * i + jp] + u[M * i + jm] - 4.0 * uij;
      double lv = v[M * im + j] + v[M * ip + j] + v[M * i + jp] + v[M * i + jm] - 4.0 * vij;
      out[M * i + j] = a * lu + 1.0 + uij * uij * vij - 4.4 * uij;
      out[M * M + M * i + j] = a * lv + 3.4 * uij - uij * uij * vij;
    }
}

void interleaved2d(double *restrict out, const double *restrict x, double a) {
#pragma float_control(precise, on)
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      int ip = clampi(i + 1, M), im = clampi(i - 1, M), jp = clampi(j + 1, M),
          jm = clampi(j - 1, M);
      int c = 2 * (M * i + j);
      double uij = x[c], vij = x[c + 1];
      double lu = x[2 * (M * im + j)] + x[2 * (M * ip + j)] + x[2 * (M * i + jp)] +
                  x[2 * (M * i + jm)] - 4.0 * uij;
      double lv = x[2 * (M * im + j) + 1] + x[2 * (M * ip + j) + 1] + x[2 * (M * i + jp) + 1] +
                  x[2 * (M * i + jm) + 1] - 4.0 * vij;
      out[c] = a * lu + 1.0 + uij * uij * vij - 4.4 * uij;
      out[c + 1] = a * lv + 3.4 * uij - uij * uij * vij;
    }
}

/* a sum carried by the loop, its final value used after the loop; the last iterate's
 * product stored after the loop */
void carried(double *restrict out, const double *restrict x, double a) {
  double s = 0, last = 0;
  for (int i = 0; i < N - 1; i++) {
    last = x[i] * x[clampi(i + 1, N - 1)];
    s += last;
    out[i] = a * last;
  }
  out[N - 1] = s * last;
}

/* signed clamp (smin) of an offset that may be negative at the start */
void signed_min(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    int k = i - 3;
    int lo = k > N - 5 ? N - 5 : k; /* smin(i - 3, N - 5): identity but at the last */
    out[i] = a * x[i] * x[lo < 0 ? i : lo] + x[i];
  }
}

/* two loops: a clamped one (peeled, streams) and one running down over the interior
 * (its reverse reads the cell index from the tape: not a stream) */
void updown(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) out[i] = x[i] * x[clampi(i + 1, N)];
  for (int i = N - 2; i >= 1; i--) out[i] += a * (x[i - 1] - 2.0 * x[i] + x[i + 1]) * x[i];
}

/* near miss: no restrict, the shadows may overlap (no stream) */
void norestrict1d(double *out, const double *x, double a) {
  for (int i = 0; i < N; i++) {
    double l = x[clampi(i - 1, N)] + x[clampi(i + 1, N)] - 2.0 * x[i];
    out[i] = a * l + x[i] * x[i];
  }
}

/* near miss: in place, the reverse loop zeroes the shadow it would stream into */
void inplace(double *restrict x, double a) {
  for (int i = 1; i < N; i++) x[i] = x[i - 1] * a + x[i] * x[clampi(i + 1, N)];
}

/* near miss: the clamp's bound is known only at run time */
void runtime_bound(double *restrict out, const double *restrict x, double a) {
  int n = g_n;
  for (int i = 0; i < n; i++) out[i] = a * x[i] * x[clampi(i + 1, n)] + x[i];
}

/* near miss: the clamp is not the identity on the last three iterations */
void three_from_end(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) out[i] = a * x[i] * x[clampi(i + 3, N)] + sin(x[i]);
}

/* near miss: a loop of three iterations (the transform keeps at least two) */
void short_loop(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < 3; i++) out[i] = a * x[i] * x[clampi(i + 1, 3)];
  for (int i = 3; i < N; i++) out[i] = x[i] * x[i];
}

/* near miss: the clamped value is loaded, not the counter */
void loaded_index(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) out[i] = a * x[i] * x[clampi(g_idx[i] + 1, N)] + x[i];
}

#include "fz_stencil.h"

typedef struct {
  double *x, *lam;
  double a;
} ip_t;

static double dot_inplace(void *q) {
  ip_t *c = q;
  double y[N];
  memcpy(y, c->x, sizeof y);
  inplace(y, c->a);
  double s = 0;
  for (int i = 0; i < N; i++) s += c->lam[i] * y[i];
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++) g_idx[i] = (5 * i + 2) % N;
  CHECK_SHAPE(clamped1d, N);
  CHECK_SHAPE(wide1d, N);
  CHECK_SHAPE(clamped2d, 2 * M * M);
  CHECK_SHAPE(interleaved2d, 2 * M * M);
  CHECK_SHAPE(carried, N);
  CHECK_SHAPE(signed_min, N);
  CHECK_SHAPE(updown, N);
  CHECK_SHAPE(norestrict1d, N);
  CHECK_SHAPE(runtime_bound, N);
  CHECK_SHAPE(three_from_end, N);
  CHECK_SHAPE(short_loop, N);
  CHECK_SHAPE(loaded_index, N);
  {
    double x[N], lam[N], dx[N], want[N], y[N];
    for (int i = 0; i < N; i++) {
      x[i] = 0.2 + 0.3 * cos(0.7 * i);
      lam[i] = 1.0 - 0.02 * i;
    }
    ip_t c = {x, lam, 0.9};
    fz_fd_grad(dot_inplace, &c, x, N, want);
    memcpy(dx, lam, sizeof dx);
    memcpy(y, x, sizeof y);
    /* in place: the shadow of x carries lambda in and the gradient out */
    __enzyme_autodiff((void *)inplace, enzyme_dup, y, dx, enzyme_const, 0.9);
    fz_check_arr("inplace dx", dx, want, N, 1e-6);
  }
  return fz_finish();
}
