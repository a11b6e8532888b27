// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// Periodic stencils whose wrapped neighbour is chosen by a branch (`if (i == N - 1) ip
// = 0; else ip = i + 1;`, or `?:`), not `% N` (issue 14, pbr11;
// crates/ferrozyme-transform/src/wrap_index.rs). At -O2 clang peels the first and last
// iterations itself and the loop left reads its neighbours through 32-bit spellings
// (`(j + 1 + 32i) & 0xffffffff`, `ashr exact ((j << 32) - (1 << 32)), 32`); the
// transform proves those exact from the counters' ranges, anchors the neighbours at
// offsets of the centre, folds the counter's exit value used by the peeled last
// iteration, and the reverse loop then carries streams (fast-math). Shapes: 1-D with
// `if` and with `?:`, 2-D u/v (the Brusselator's `brusselator_periodic_br`) with `if`
// and with `?:` on an odd size, in place (the reverse loop zeroes what it would stream
// into: no stream), odd sizes N = 1, 2, 3 (the wrap is every iteration), and near misses
// whose results must stay right: the wrap compared against another iteration than the
// last (`i == N - 3` in a loop to N - 2), a bound known only at run time, a row length that does not
// match the wrap. Oracle: central finite differences (fz_fd_grad), every coordinate.
// 663_periodic_branch_stencils_v3 builds this file without fast-math at x86-64-v3.
#include "fz_test.h"

enum { N = 37, M = 12, K = 7 };

static volatile int g_n = N; /* a bound known only at run time */

void if1d(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    int ip, im;
    if (i == N - 1) ip = 0; else ip = i + 1;
    if (i == 0) im = N - 1; else im = i - 1;
    out[i] = a * (x[im] + x[ip] - 2.0 * x[i]) + x[i] * x[i] * x[i];
  }
}

void ternary1d(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    int ip = i == N - 1 ? 0 : i + 1, im = i == 0 ? N - 1 : i - 1;
    out[i] = a * x[im] * x[ip] + sin(x[i]) - x[ip];
  }
}

/* the Brusselator's periodic-by-branches right-hand side, M x M, u and v in two blocks */
void bruss_if(double *restrict out, const double *restrict x, double a) {
  const double *u = x, *v = x + M * M;
  double *du = out, *dv = out + M * M;
  for (int i = 0; i < M; i++) {
    int ip1, im1;
    if (i == M - 1) ip1 = 0; else ip1 = i + 1;
    if (i == 0) im1 = M - 1; else im1 = i - 1;
    for (int j = 0; j < M; j++) {
      int jp1, jm1;
      if (j == M - 1) jp1 = 0; else jp1 = j + 1;
      if (j == 0) jm1 = M - 1; else jm1 = j - 1;
      double uij = u[M * i + j], vij = v[M * i + j];
      double lu = u[M * im1 + j] + u[M * ip1 + j] + u[M * i + jp1] + u[M * i + jm1] - 4.0 * uij;
      double lv = v[M * im1 + j] + v[M * ip1 + j] + v[M * i + jp1] + v[M * i + jm1] - 4.0 * vij;
      du[M * i + j] = a * lu + 1.0 + uij * uij * vij - 4.4 * uij;
      dv[M * i + j] = a * lv + 3.4 * uij - uij * uij * vij;
    }
  }
}

/* `?:` on an odd size K, rows of K */
void bruss_ternary_odd(double *restrict out, const double *restrict x, double a) {
  const double *u = x, *v = x + K * K;
  for (int i = 0; i < K; i++) {
    int ip = i == K - 1 ? 0 : i + 1, im = i == 0 ? K - 1 : i - 1;
    for (int j = 0; j < K; j++) {
      int jp = j == K - 1 ? 0 : j + 1, jm = j == 0 ? K - 1 : j - 1;
      double uij = u[K * i + j], vij = v[K * i + j];
      double lu = u[K * im + j] + u[K * ip + j] + u[K * i + jp] + u[K * i + jm] - 4.0 * uij;
      double lv = v[K * im + j] + v[K * ip + j] + v[K * i + jp] + v[K * i + jm] - 4.0 * vij;
      out[K * i + j] = a * lu + uij * uij * vij;
      out[K * K + K * i + j] = a * lv - uij * vij;
    }
  }
}

/* odd sizes: every iteration wraps on one side or both */
#define SMALL(NAME, S)                                                   \
  void NAME(double *restrict out, const double *restrict x, double a) { \
    for (int i = 0; i < S; i++) {                                        \
      int ip, im;                                                        \
      if (i == S - 1) ip = 0; else ip = i + 1;                           \
      if (i == 0) im = S - 1; else im = i - 1;                           \
      out[i] = a * x[im] * x[ip] + x[i] * x[i];                          \
    }                                                                    \
    for (int i = S; i < N; i++) out[i] = x[i] * a;                       \
  }
SMALL(size1, 1)
SMALL(size2, 2)
SMALL(size3, 3)

/* near miss: the wrap is taken one iteration before the last (x[0] read at i = N - 3,
 * x[N - 1] at i = N - 2) */
void early_wrap(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N - 1; i++) {
    int ip = i == N - 3 ? 0 : i + 1, im = i == 0 ? N - 1 : i - 1;
    out[i] = a * x[im] * x[ip] + x[i];
  }
  out[N - 1] = x[N - 1];
}

/* near miss: the wrap's bound is known only at run time */
void runtime_wrap(double *restrict out, const double *restrict x, double a) {
  int n = g_n;
  for (int i = 0; i < n; i++) {
    int ip = i == n - 1 ? 0 : i + 1, im = i == 0 ? n - 1 : i - 1;
    out[i] = a * (x[im] - x[ip]) * x[i] + x[i];
  }
}

/* near miss: rows of M, the wrap at M - 1 but the column loop runs to M - 2 */
void short_rows(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M - 1; j++) {
      int jp = j == M - 1 ? 0 : j + 1, jm = j == 0 ? M - 1 : j - 1;
      out[M * i + j] = a * x[M * i + jp] * x[M * i + jm] + x[M * i + j];
    }
  for (int i = 0; i < M; i++) out[M * i + M - 1] = x[M * i + M - 1];
}

/* in place: each cell reads its wrapped neighbours, the right one not yet updated */
void inplace(double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    int ip = i == N - 1 ? 0 : i + 1, im = i == 0 ? N - 1 : i - 1;
    x[i] = a * x[im] * x[ip] + x[i] * x[i];
  }
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
  CHECK_SHAPE(if1d, N);
  CHECK_SHAPE(ternary1d, N);
  CHECK_SHAPE(bruss_if, 2 * M * M);
  CHECK_SHAPE(bruss_ternary_odd, 2 * K * K);
  CHECK_SHAPE(size1, N);
  CHECK_SHAPE(size2, N);
  CHECK_SHAPE(size3, N);
  CHECK_SHAPE(early_wrap, N);
  CHECK_SHAPE(runtime_wrap, N);
  CHECK_SHAPE(short_rows, M * M);
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
