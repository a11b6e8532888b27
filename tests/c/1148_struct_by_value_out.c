// OPT: O0 O1 O2 O3
// Small structs passed by value where the x86-64 ABI splits them into registers, marked
// enzyme_out as one argument: a pair of doubles (two double registers), a pair of floats
// (one <2 x float> register), a double with an int (a double and an integer register);
// the adjoints come back in a struct declared as the hook's result. Forward mode of a
// function returning a pair of doubles (its tangent returned as the pair). Oracle:
// analytic derivatives.
#include "fz_test.h"

extern int enzyme_out, enzyme_const, enzyme_dup;
typedef struct { double a, b; } pair;
typedef struct { float x, y; } fpair;
typedef struct { double a; int n; } dn;
typedef struct { double d0, d1, d2; } g3;
typedef struct { float d0, d1; } gf2;
extern g3 __enzyme_autodiff_g3(void *, ...);
extern gf2 __enzyme_autodiff_gf2(void *, ...);
extern double __enzyme_autodiff_d(void *, ...);
extern pair __enzyme_fwddiff_pair(void *, ...);

double f(pair p, double s) { return p.a * p.b * s + sin(p.b); }
float ff(fpair p) { return p.x * p.x * p.y; }
double fdn(dn p) { return p.a * p.a * p.n; }
pair mk(double x, double y) {
  pair r = {x * y, sin(x) + y * y};
  return r;
}

int main(void) {
  pair p = {1.5, 0.5};
  double s = 2.0;
  g3 r = __enzyme_autodiff_g3((void *)f, enzyme_out, p, enzyme_out, s);
  fz_check("pair d/da", r.d0, p.b * s, 1e-14);
  fz_check("pair d/db", r.d1, p.a * s + cos(p.b), 1e-14);
  fz_check("pair d/ds", r.d2, p.a * p.b, 1e-14);
  fpair q = {1.5f, 2.0f};
  gf2 rf = __enzyme_autodiff_gf2((void *)ff, enzyme_out, q);
  fz_check("fpair d/dx", rf.d0, 2 * 1.5 * 2.0, 1e-6);
  fz_check("fpair d/dy", rf.d1, 1.5 * 1.5, 1e-6);
  dn z = {1.5, 3};
  double rz = __enzyme_autodiff_d((void *)fdn, enzyme_out, z);
  fz_check("double+int d/da", rz, 2 * 1.5 * 3, 1e-14);
  pair t = __enzyme_fwddiff_pair((void *)mk, 0.7, 1.0, 0.3, 0.0);
  fz_check("fwd pair.a d/dx", t.a, 0.3, 1e-14);
  fz_check("fwd pair.b d/dx", t.b, cos(0.7), 1e-14);
  pair u = __enzyme_fwddiff_pair((void *)mk, 0.7, 0.0, 0.3, 1.0);
  fz_check("fwd pair.a d/dy", u.a, 0.7, 1e-14);
  fz_check("fwd pair.b d/dy", u.b, 0.6, 1e-14);
  return fz_finish();
}
