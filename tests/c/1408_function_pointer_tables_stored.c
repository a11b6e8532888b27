// OPT: O0 O2
// Mutable tables of function pointers, as strategy tables in C are written: a `static`
// array of pointers (mutable at -O0: a global holding pointers, with a shadow), an entry
// the differentiated function itself stores (`table[2] = k ? sn : sq`, a store into one
// element of the global: a constant GEP, which crashed the body audit at -O0), entries
// the program changes between two derivative calls (before them, outside the
// differentiated code), and an array of `{ fn, weight }` stages. The derivative is found
// from the primal pointer, so the shadow of a function is the function itself (a null
// one stopped the program at -O0: "the pointer read from global ... has no shadow").
// Reverse and forward mode. Oracle: the analytic derivative of the functions the tables
// hold at each call.
#include "fz_test.h"
#include "fz_modes.h"

typedef double (*fn)(double);
static double sq(double x) { return x * x; }
static double cu(double x) { return x * x * x; }
static double sn(double x) { return sin(x); }
static double dsq(double x) { return 2 * x; }
static double dcu(double x) { return 3 * x * x; }
static double dsn(double x) { return cos(x); }
static fn TAB[3] = {sq, cu, 0};
typedef struct { fn f; double w; } stage;
static stage ST[2] = {{sq, 0.5}, {cu, 2.0}};

double g(double x, int k) {
  TAB[2] = k ? sn : sq; /* stored inside the differentiated code */
  double s = 0;
  for (int i = 0; i < 3; i++) s += TAB[i](x);
  for (int i = 0; i < 2; i++) s += ST[i].w * ST[i].f(x);
  return s;
}

static fn deriv(fn f) { return f == sq ? dsq : f == cu ? dcu : dsn; }
static double want(double x, int k) {
  double s = deriv(TAB[0])(x) + deriv(TAB[1])(x) + (k ? dsn(x) : dsq(x));
  for (int i = 0; i < 2; i++) s += ST[i].w * deriv(ST[i].f)(x);
  return s;
}

int main(void) {
  double xs[3] = {0.7, -1.3, 2.1};
  for (int round = 0; round < 3; round++) {
    if (round == 1) { /* stored outside, before the derivative calls */
      TAB[0] = cu;
      ST[1].f = sn;
    }
    if (round == 2) {
      TAB[1] = sn;
      ST[0].f = cu, ST[0].w = -1.5;
    }
    for (int k = 0; k < 2; k++) {
      double x = xs[round];
      double d = __enzyme_autodiff((void *)g, x, enzyme_const, k);
      char b[64];
      snprintf(b, sizeof b, "round %d k=%d reverse", round, k);
      fz_check(b, d, want(x, k), 1e-12);
      double t = __enzyme_fwddiff((void *)g, x, 1.0, enzyme_const, k);
      snprintf(b, sizeof b, "round %d k=%d forward", round, k);
      fz_mcheck(b, t, want(x, k), 1e-12);
    }
  }
  return fz_finish();
}
