// OPT: O0 O2
// A gradient-checking helper (fz_fd_ptr: perturbs `*xi`, calls the model) called with
// pointers into a double array and into an array of records with an `int` beside the
// doubles. Type analysis joins what every caller passes to a parameter and hands the
// join back to every caller's object, so through the helper the record's `int` reached
// the array, every offset of both conflicted, and at -O0 the differentiated function's
// memcpy of either was refused ("cannot deduce the type of the memory copied here").
// Since enz36, a parameter the callee only reads and writes at fixed offsets passes only
// the facts of those bytes (`types/engine/access_window.rs`). Oracles: central
// differences, forward = reverse.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct {
  double e;
  double a;
  int k;
  double b;
} rec;

double f(const double *x, rec *r, int n) {
  double buf[8];
  memcpy(buf, x, n * sizeof *x);
  rec copy[4];
  memcpy(copy, r, sizeof copy);
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * copy[i % 4].e * copy[i % 4].b + copy[i % 4].k * buf[i];
  return s * s;
}

static double X[6];
static rec R[4];
static double eval(void *u) {
  (void)u;
  rec r2[4];
  memcpy(r2, R, sizeof R);
  return f(X, r2, 6);
}

int main(void) {
  for (int i = 0; i < 6; i++) X[i] = 0.3 + 0.1 * i;
  for (int i = 0; i < 4; i++) {
    R[i].e = 0.2 * i - 0.3;
    R[i].a = 7;
    R[i].k = i - 1;
    R[i].b = -0.4 + 0.3 * i;
  }
  double gx[6] = {0};
  rec r[4], dr[4];
  memcpy(r, R, sizeof R);
  memset(dr, 0, sizeof dr);
  __enzyme_autodiff((void *)f, enzyme_dup, X, gx, enzyme_dup, r, dr, enzyme_const, 6);
  for (int i = 0; i < 6; i++) fz_check("d/dx", gx[i], fz_fd_ptr(eval, 0, &X[i]), 1e-7);
  for (int i = 0; i < 4; i++) {
    fz_check("d/de", dr[i].e, fz_fd_ptr(eval, 0, &R[i].e), 1e-7);
    fz_check("d/db", dr[i].b, fz_fd_ptr(eval, 0, &R[i].b), 1e-7);
    fz_check("d/da (unused)", dr[i].a, 0, 0);
  }
  for (int j = 0; j < 6; j++) {
    double tx[6] = {0};
    rec r2[4], t2[4];
    tx[j] = 1;
    memcpy(r2, R, sizeof R);
    memset(t2, 0, sizeof t2);
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, X, tx, enzyme_dup, r2, t2, enzyme_const, 6);
    fz_check("fwd = rev", t, gx[j], 1e-12);
  }
  return fz_finish();
}
