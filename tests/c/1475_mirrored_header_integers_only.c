// OPT: O0 O1 O2 O3
// rust43: which integer stores into `enzyme_dup` memory reach the shadow. Mirrored: the
// length of a buffer's header `{double *data; int n; int cap}` (an object holding a
// pointer), appended to in its reserved capacity, so the caller's shadow header counts
// the values its buffer holds (`common/mirrored_ints.rs`). Not mirrored: an integer field
// of a record without a pointer (`{double w[2]; int steps}`, tests/c/1250's contract: the
// shadow's integers stay the user's) and an integer out-argument (a count; a Fortran
// `ierr` in tests/mpi/51). Reverse mode: gradients against the formula and central
// differences; the shadow integers the user set (-7, 42) unchanged, the header's length
// mirrored, the appended values' adjoints consumed. Forward mode: the tangent header's
// length mirrored, the record's integer the user's, the appended tangents against the
// formula, the tangent against the dot product with the gradient. (Forward mode writes
// an integer's zero tangent into an out-argument's shadow, as before rust41.)
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double *data;
  int n, cap;
} buf;

typedef struct {
  double w[2];
  int steps;
} rec;

enum { M = 3 };

/* Appends w0 * x_i to b (its capacity reserved), counts the steps in r and in *count;
   f = sum of the squares of all b's values + w1 * (its old first value). */
__attribute__((noinline)) double append(const double *x, buf *b, rec *r, int *count) {
  double first = b->data[0];
  for (int i = 0; i < M; i++) {
    b->data[b->n] = r->w[0] * x[i];
    b->n = b->n + 1;
    r->steps = r->steps + 1;
    *count = *count + 1;
  }
  double s = 0;
  for (int i = 0; i < b->n; i++) s += b->data[i] * b->data[i];
  return s + r->w[1] * first;
}

static double x[M], w[2] = {1.5, -0.75}, b0 = 0.4;
static double primal(void *c) {
  (void)c;
  double d[8] = {b0};
  buf b = {d, 1, 8};
  rec r = {{w[0], w[1]}, 0};
  int count = 0;
  return append(x, &b, &r, &count);
}

int main(void) {
  fz_seed(1475);
  double dxdir[M];
  for (int i = 0; i < M; i++) x[i] = fz_uniform(-1, 1), dxdir[i] = fz_uniform(-1, 1);

  double g[M] = {0}, d[8] = {b0}, dd[8] = {0};
  buf b = {d, 1, 8}, db = {dd, 1, 8};
  rec r = {{w[0], w[1]}, 0}, dr = {{0, 0}, -7};
  int count = 0, dcount = 42;
  __enzyme_autodiff((void *)append, enzyme_dup, x, g, enzyme_dup, &b, &db, enzyme_dup, &r, &dr,
                    enzyme_dup, &count, &dcount);
  fz_check("primal length", b.n, 1 + M, 0);
  fz_check("header length mirrored", db.n, b.n, 0);
  fz_check("header capacity the user's", db.cap, 8, 0);
  fz_check("record's integer the user's", dr.steps, -7, 0);
  fz_check("out-argument's shadow the user's", dcount, 42, 0);
  double sx = 0;
  for (int i = 0; i < M; i++) {
    sx += x[i] * x[i];
    fz_check("d f / d x (analytic)", g[i], 2 * w[0] * w[0] * x[i], 1e-12);
    fz_check("d f / d x (FD)", g[i], fz_fd_ptr(primal, NULL, &x[i]), 1e-6);
  }
  fz_check("d f / d w0 (analytic)", dr.w[0], 2 * w[0] * sx, 1e-12);
  fz_check("d f / d w0 (FD)", dr.w[0], fz_fd_ptr(primal, NULL, &w[0]), 1e-6);
  fz_check("d f / d w1 (analytic)", dr.w[1], b0, 1e-12);
  fz_check("d f / d b[0] (analytic)", dd[0], 2 * b0 + w[1], 1e-12);
  fz_check("d f / d b[0] (FD)", dd[0], fz_fd_ptr(primal, NULL, &b0), 1e-6);
  for (int i = 1; i <= M; i++) fz_check("appended values' adjoints consumed", dd[i], 0, 0);

  double e[8] = {b0}, te[8] = {0.25};
  buf tb0 = {e, 1, 8}, tb = {te, 1, 8};
  rec tr0 = {{w[0], w[1]}, 0}, tr = {{0.5, -1.0}, -7};
  int tcount0 = 0, tcount = 42;
  double t = __enzyme_fwddiff((void *)append, enzyme_dup, x, dxdir, enzyme_dup, &tb0, &tb,
                              enzyme_dup, &tr0, &tr, enzyme_dup, &tcount0, &tcount);
  double dot = 0.25 * dd[0] + 0.5 * dr.w[0] - 1.0 * dr.w[1];
  for (int i = 0; i < M; i++) dot += g[i] * dxdir[i];
  fz_check("forward = <gradient, direction>", t, dot, 1e-10);
  fz_check("forward: header length mirrored", tb.n, tb0.n, 0);
  fz_check("forward: record's integer the user's", tr.steps, -7, 0);
  for (int i = 0; i < M; i++)
    fz_check("forward: appended tangent (analytic)", te[1 + i], 0.5 * x[i] + w[0] * dxdir[i], 1e-12);
  return fz_finish();
}
