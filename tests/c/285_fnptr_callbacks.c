// OPT: O0 O1 O2 O3
// Calls through function pointers (issue 10: rejected at -O0, and at -O2 unless inlining
// removed the pointer): a callback argument, a constant table indexed at run time, a
// struct field of a duplicated struct, a libm function passed as a callback, a function
// returning a function pointer, and recursion through a pointer. Reverse and forward mode.
// Oracle: analytic.
#include "fz_test.h"
#include "fz_modes.h"

typedef double (*fn)(double);
double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }
__attribute__((noinline)) double apply(fn f, double x) { return 3.0 * f(x); }
static fn table[3] = {sq, cube, sin};
double via_table(double x, int k) { return table[k](x); }
struct S { fn f; double w; };
double via_struct(const struct S *s, double x) { return s->w * s->f(x); }
__attribute__((noinline)) fn pick(int k) { return k ? cube : sq; }
double via_returned(double x, int k) { return pick(k)(x) + pick(1 - k)(x); }
/* f(x, n) = x * f(x, n-1), through a pointer to itself. */
double power(double x, int n);
static double (*volatile self)(double, int) = power;
double power(double x, int n) { return n == 0 ? 1.0 : x * self(x, n - 1); }
double top(double x) { return apply(sq, x) + apply(cube, x) + apply(sin, x); }

int main(void) {
  fz_seed(285);
  for (int t = 0; t < 3; t++) {
    double x = fz_uniform(0.5, 2);
    double want_top = 3 * (2 * x + 3 * x * x + cos(x));
    fz_check("callback arg (rev)", __enzyme_autodiff((void *)top, x), want_top, 1e-12);
    fz_check("callback arg (fwd)", __enzyme_fwddiff((void *)top, x, 1.0), want_top, 1e-12);
    fz_check("function passed to the hook", __enzyme_autodiff((void *)apply, cube, x),
             9 * x * x, 1e-12);
    for (int k = 0; k < 3; k++) {
      double want = k == 0 ? 2 * x : k == 1 ? 3 * x * x : cos(x);
      fz_check("table", __enzyme_autodiff((void *)via_table, x, enzyme_const, k), want, 1e-12);
      fz_check("table (fwd)", __enzyme_fwddiff((void *)via_table, x, 1.0, enzyme_const, k),
               want, 1e-12);
    }
    struct S s = {cube, fz_uniform(0.5, 2)}, ds = {0, 0};
    double d = __enzyme_autodiff((void *)via_struct, enzyme_dup, &s, &ds, x);
    fz_check("struct field: dx", d, s.w * 3 * x * x, 1e-12);
    fz_check("struct field: dw", ds.w, x * x * x, 1e-12);
    fz_check("returned pointer", __enzyme_autodiff((void *)via_returned, x, enzyme_const, 1),
             3 * x * x + 2 * x, 1e-12);
    fz_check("recursion through a pointer",
             __enzyme_autodiff((void *)power, x, enzyme_const, 5), 5 * pow(x, 4), 1e-12);
  }
  return fz_finish();
}
