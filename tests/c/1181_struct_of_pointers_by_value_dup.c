// OPT: O0 O1 O2 O3
// Structs holding pointers passed BY VALUE with enzyme_dup, as Enzyme treats them: x86-64
// passes a struct over 16 bytes in memory (byval), the shadow struct (holding the shadow
// pointers) is copied alike, and the derivatives go through its pointers to the caller's
// buffers. A matrix view {data, rows, cols, stride}, a pair of arrays with a length,
// nested by-value calls, reverse and forward mode (in forward mode a float field's
// tangent travels in the shadow copy too). Refused before ("its shadow would be a copy");
// a struct holding floats by value in reverse mode is still refused
// (tests/errors/audit_byval_struct.c). Oracle: analytic.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double *data;
  long rows, cols, stride;
} mat;

typedef struct {
  const double *x;
  double *y;
  long n;
} pair;

/* y = A x, returns sum of squares of y (A's entries and x active) */
static double apply(mat a, pair p) {
  double s = 0;
  for (long i = 0; i < a.rows; i++) {
    double acc = 0;
    for (long j = 0; j < a.cols; j++) acc += a.data[i * a.stride + j] * p.x[j];
    p.y[i] = acc;
    s += acc * acc;
  }
  return s;
}

double loss(mat a, pair p) { return 0.5 * apply(a, p); }

typedef struct {
  double *v;
  double scale;
  long n;
} scaled;

double scaled_norm(scaled s) {
  double t = 0;
  for (long i = 0; i < s.n; i++) t += s.v[i] * s.v[i];
  return s.scale * t;
}

int main(void) {
  enum { R = 3, C = 4, S = 5 };
  double A[R * S], dA[R * S] = {0}, x[C], dx[C] = {0}, y[R], dy[R] = {0};
  fz_seed(11);
  fz_fill(A, R * S, -1, 1);
  fz_fill(x, C, -1, 1);
  mat a = {A, R, C, S}, da = {dA, R, C, S};
  pair p = {x, y, C}, dp = {dx, dy, C};
  __enzyme_autodiff((void *)loss, enzyme_dup, a, da, enzyme_dup, p, dp);
  double yy[R];
  for (int i = 0; i < R; i++) {
    yy[i] = 0;
    for (int j = 0; j < C; j++) yy[i] += A[i * S + j] * x[j];
  }
  char nm[64];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      snprintf(nm, sizeof nm, "dA[%d][%d]", i, j);
      fz_check(nm, dA[i * S + j], yy[i] * x[j], 1e-13);
    }
  for (int i = 0; i < R; i++) {
    snprintf(nm, sizeof nm, "dA[%d][pad]", i);
    fz_check(nm, dA[i * S + C], 0.0, 1e-15);
  }
  for (int j = 0; j < C; j++) {
    double want = 0;
    for (int i = 0; i < R; i++) want += yy[i] * A[i * S + j];
    snprintf(nm, sizeof nm, "dx[%d]", j);
    fz_check(nm, dx[j], want, 1e-13);
  }

  /* forward: tangent of A only along entry (1,2) and of x along x[2] */
  double tA[R * S] = {0}, tx[C] = {0}, ty[R] = {0};
  tA[1 * S + 2] = 1.0;
  tx[2] = 1.0;
  mat ta = {tA, R, C, S};
  pair tp = {tx, ty, C};
  double d = __enzyme_fwddiff((void *)loss, enzyme_dup, a, ta, enzyme_dup, p, tp);
  double want = 0;
  for (int i = 0; i < R; i++) {
    double dyi = A[i * S + 2] + (i == 1 ? x[2] : 0.0);
    want += yy[i] * dyi;
    snprintf(nm, sizeof nm, "forward y tangent[%d]", i);
    fz_check(nm, ty[i], dyi, 1e-13);
  }
  fz_check("forward loss tangent", d, want, 1e-13);

  /* forward mode with a float field in the by-value struct: its tangent is read from
   * the shadow copy */
  double v[4] = {0.5, -1.5, 2.0, 0.25}, tv[4] = {0, 1, 0, 0};
  scaled s = {v, 1.75, 4}, ts = {tv, 2.0, 4};
  double ds = __enzyme_fwddiff((void *)scaled_norm, enzyme_dup, s, ts);
  double vv = 0;
  for (int i = 0; i < 4; i++) vv += v[i] * v[i];
  fz_check("forward scaled norm", ds, 2.0 * vv + 1.75 * 2 * v[1], 1e-13);
  return fz_finish();
}
