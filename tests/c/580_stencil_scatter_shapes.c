// OPT: O0 O1 O2 O3
// CFLAGS: -ffast-math
// Reverse loops whose adjoint scatters into neighbours' shadows (issue 14, the
// Brusselator's reverse stencil): each shape below is one vector-Jacobian product whose
// state gradient is checked coordinate by coordinate against central finite differences
// of lambda . f(x). The shapes a gather-form or peeled emission of the reverse stencil
// must handle: 1-D clamped, 1-D periodic by index arithmetic, 1-D periodic by branches,
// 2-D clamped 5-point (separate u/v), 2-D interleaved u/v, a wide (+-2) clamped stencil.
// Near misses that must stay in scatter form: targets that overlap (two streams hitting
// the same cell in the same iteration: i and min(i + 1, n - 1) at the last cell is the
// clamp itself, i and i ^ 1 here), an index map that is not invertible (i / 2, i * i % n),
// a gather through an index array (run-time indices, repeated), and an output written in
// place over its own input (the shadow aliases the input's). Built with -ffast-math at
// O0..O3: at O2/O3 the vectorizers are on, as users compile.
// Oracle: central finite differences (fz_fd_ptr), every coordinate.
#include "fz_test.h"

enum { N = 37, M = 9 };

static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

void clamped1d(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    double l = x[clampi(i - 1, N)] + x[clampi(i + 1, N)] - 2.0 * x[i];
    out[i] = a * l + x[i] * x[i] * x[i];
  }
}

void periodic1d(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    double l = x[(i + N - 1) % N] + x[(i + 1) % N] - 2.0 * x[i];
    out[i] = a * l + sin(x[i]);
  }
}

void periodic1d_br(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) {
    int ip = i + 1, im = i - 1;
    if (ip == N) ip = 0;
    if (im < 0) im = N - 1;
    double l = x[im] + x[ip] - 2.0 * x[i];
    out[i] = a * l * x[i];
  }
}

void wide1d(double *restrict out, const double *restrict x, double a) {
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

/* the same with u, v interleaved per cell */
void interleaved2d(double *restrict out, const double *restrict x, double a) {
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

/* near miss: two reads of the same cell in one iteration for pairs (i ^ 1) */
void pairs(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N - 1; i++) out[i] = a * x[i] * x[i ^ 1] + x[((i + 1) ^ 1) % N];
  out[N - 1] = x[N - 1];
}

/* near miss: index maps that are not invertible */
void noninv(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) out[i] = a * x[i / 2] * x[(i * i) % N] + cos(x[i]);
}

/* near miss: run-time indices (repeated) */
static int idx[N];
void indirect(double *restrict out, const double *restrict x, double a) {
  for (int i = 0; i < N; i++) out[i] = a * x[idx[i]] * x[idx[(i + 1) % N]] + x[i];
}

/* near miss: in place, the output overwrites the input as it goes (reads the new x[i-1]) */
void inplace(double *x, double a) {
  for (int i = 1; i < N; i++) x[i] = a * x[i - 1] * x[i] + x[i];
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
  for (int i = 0; i < N; i++) idx[i] = (7 * i + 3) % 11; /* repeats: 11 < N */
  CHECK_SHAPE(clamped1d, N);
  CHECK_SHAPE(periodic1d, N);
  CHECK_SHAPE(periodic1d_br, N);
  CHECK_SHAPE(wide1d, N);
  CHECK_SHAPE(clamped2d, 2 * M * M);
  CHECK_SHAPE(interleaved2d, 2 * M * M);
  CHECK_SHAPE(pairs, N);
  CHECK_SHAPE(noninv, N);
  CHECK_SHAPE(indirect, N);
  {
    double x[N], lam[N], dx[N], want[N];
    for (int i = 0; i < N; i++) {
      x[i] = 0.2 + 0.3 * cos(0.7 * i);
      lam[i] = 1.0 - 0.02 * i;
    }
    ip_t c = {x, lam, 0.9};
    fz_fd_grad(dot_inplace, &c, x, N, want);
    memcpy(dx, lam, sizeof dx);
    double y[N];
    memcpy(y, x, sizeof y);
    /* in place: the shadow of x carries lambda in and the gradient out */
    __enzyme_autodiff((void *)inplace, enzyme_dup, y, dx, enzyme_const, 0.9);
    fz_check_arr("inplace dx", dx, want, N, 1e-6);
  }
  return fz_finish();
}
