// OPT: O0 O2
// Functions returning structs of doubles in forward mode: a `{double, double}` returned
// in two registers (one tangent, and `enzyme_width, 2` tangents returned as two structs)
// and a three-double struct returned through `sret`, with a pointer argument. Reverse
// mode of such a function is refused (one float result is seeded: "several
// floating-point values"; tests/errors/enz36_struct_return_reverse.c). Oracles: analytic.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct { double a, b; } pair;
typedef struct { double a, b, c; } trip;
typedef struct { pair l[2]; } pair2;

pair f(double x, double y) {
  pair p = {x * y, sin(x) + y * y};
  return p;
}
trip g3(const double *x, double s) {
  trip t = {x[0] * s, x[1] * x[0], exp(s * x[1])};
  return t;
}
extern pair __enzyme_fwddiff_pair(void *, ...);
extern trip __enzyme_fwddiff_trip(void *, ...);
extern pair2 __enzyme_fwddiff_pair2(void *, ...);

int main(void) {
  double x = 0.7, y = 1.3;
  pair t = __enzyme_fwddiff_pair((void *)f, x, 1.0, y, 0.0);
  fz_check("d(xy)/dx", t.a, y, 1e-15);
  fz_check("d(sin x + y^2)/dx", t.b, cos(x), 1e-15);
  pair2 t2 = __enzyme_fwddiff_pair2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  fz_check("lane 0 d(xy)/dx", t2.l[0].a, y, 1e-15);
  fz_check("lane 0 d(sin x + y^2)/dx", t2.l[0].b, cos(x), 1e-15);
  fz_check("lane 1 d(xy)/dy", t2.l[1].a, x, 1e-15);
  fz_check("lane 1 d(sin x + y^2)/dy", t2.l[1].b, 2 * y, 1e-15);
  double v[2] = {0.4, -0.6}, s = 1.5;
  for (int j = 0; j < 3; j++) {
    double dv[2] = {j == 0, j == 1}, ds = j == 2;
    trip tt = __enzyme_fwddiff_trip((void *)g3, enzyme_dup, v, dv, s, ds);
    double want_a = dv[0] * s + v[0] * ds;
    double want_b = dv[1] * v[0] + v[1] * dv[0];
    double want_c = exp(s * v[1]) * (ds * v[1] + s * dv[1]);
    fz_check("sret a", tt.a, want_a, 1e-15);
    fz_check("sret b", tt.b, want_b, 1e-15);
    fz_check("sret c", tt.c, want_c, 1e-15);
  }
  return fz_finish();
}
