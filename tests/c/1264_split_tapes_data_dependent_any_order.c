// OPT: O0 O1 O2 O3
// Split mode with tapes of different sizes alive at once and reversed in an order that
// is not last-in first-out: per sample, __enzyme_augmentfwd (declared to return
// {tape, result}) of a Newton solve whose iteration count depends on the data (a while
// loop with a tolerance), then __enzyme_reverse of the samples in a shuffled order, each
// with its own dret. The solve finds y with y^3 + a y = b; dy/da = -y / (3y^2 + a),
// dy/db = 1 / (3y^2 + a) (implicit function theorem; no sample starts at its root, where
// the loop would not run and the program's y, the constant first guess, has derivative 0).
// Oracle: those formulas.
#include "fz_test.h"

typedef struct { void *tape; double ret; } aug;
extern aug __enzyme_augmentfwd(void *, ...);
typedef struct { double da, db; } d2;
extern d2 __enzyme_reverse(void *, ...);
extern int enzyme_out;

double solve(double a, double b, const double *tol) {
  double y = b > 0 ? 1.0 : -1.0;
  int it = 0;
  double r = y * y * y + a * y - b;
  while (fabs(r) > *tol && it < 100) {
    y -= r / (3 * y * y + a);
    r = y * y * y + a * y - b;
    it++;
  }
  return y;
}

enum { S = 6 };

int main(void) {
  double as[S] = {1.0, 0.5, 3.0, 2.0, 0.1, 7.0}, bs[S] = {2.5, -5.0, 0.5, 30.0, 1.0, -0.2};
  double tol = 1e-14;
  aug tapes[S];
  for (int s = 0; s < S; s++)
    tapes[s] = __enzyme_augmentfwd((void *)solve, enzyme_out, as[s], enzyme_out, bs[s],
                                   enzyme_const, &tol);
  const int order[S] = {2, 0, 5, 3, 1, 4};
  char nm[48];
  for (int k = 0; k < S; k++) {
    int s = order[k];
    double dret = 1.0 + 0.5 * s;
    d2 d = __enzyme_reverse((void *)solve, enzyme_out, as[s], enzyme_out, bs[s], enzyme_const,
                            &tol, dret, tapes[s].tape);
    double y = tapes[s].ret, den = 3 * y * y + as[s];
    snprintf(nm, sizeof nm, "sample %d root", s);
    fz_check(nm, y * y * y + as[s] * y, bs[s], 1e-12);
    snprintf(nm, sizeof nm, "sample %d d a", s);
    fz_check(nm, d.da, -dret * y / den, 1e-10);
    snprintf(nm, sizeof nm, "sample %d d b", s);
    fz_check(nm, d.db, dret / den, 1e-10);
  }
  return fz_finish();
}
