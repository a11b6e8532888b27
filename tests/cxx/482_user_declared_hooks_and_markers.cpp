// OPT: O0 O1 O2 O3
// probe40: a user's own declarations, as Enzyme's getting-started pages and projects
// write them: the markers defined (not extern) in the program, `__enzyme_fwddiff<double>`
// with `enzyme_dup` on a scalar, hooks typed with a function-pointer parameter
// (`float __enzyme_autodiffFloat(float (*)(float), float)`), a template hook deducing its
// result from the function pointer, `__enzyme_autodiff<P>` returning a struct.
// Oracle: analytic derivatives.
#include <cmath>
#include <cstdio>
#include "fz_cxx.h"

int enzyme_dupnoneed_u;  // unrelated global with a similar name

template <typename Retval, typename... Args>
Retval __enzyme_autodiff_typed(Retval (*)(Args...), ...);
float __enzyme_autodiffFloat(float (*)(float), float);
double __enzyme_autodiffDouble(double (*)(double), double);

static double cube(double x) { return x * x * x + std::sin(x); }
static float sqf(float x) { return x * x * 3.0f; }
static double two(double x, double y) { return x * y * y + std::exp(x); }
struct P { double a, b; };

int main() {
  double x = 0.8;
  double dx = __enzyme_fwddiff<double>((void *)cube, enzyme_dup, x, 1.0);
  fz_check("fwddiff<double> enzyme_dup scalar", dx, 3 * x * x + std::cos(x), 1e-12);
  double d2 = __enzyme_autodiff<double>((void *)cube, enzyme_out, x);
  fz_check("autodiff<double>", d2, 3 * x * x + std::cos(x), 1e-12);
  float xf = 1.5f;
  float df = __enzyme_autodiffFloat(sqf, xf);
  fz_check("autodiffFloat typed fn pointer", df, 6.0 * 1.5, 1e-6);
  double dd = __enzyme_autodiffDouble(cube, x);
  fz_check("autodiffDouble typed fn pointer", dd, 3 * x * x + std::cos(x), 1e-12);
  P g = __enzyme_autodiff<P>((void *)two, enzyme_out, x, enzyme_out, 0.3);
  fz_check("autodiff<P> dx", g.a, 0.09 + std::exp(x), 1e-12);
  fz_check("autodiff<P> dy", g.b, 2 * x * 0.3, 1e-12);
  double dt = __enzyme_autodiff_typed(cube, x);
  fz_check("typed template hook", dt, 3 * x * x + std::cos(x), 1e-12);
  return fz_finish();
}
// markers defined by the program, as `int enzyme_dup;` in a user's header
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
