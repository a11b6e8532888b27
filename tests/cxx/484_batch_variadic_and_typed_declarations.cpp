// OPT: O0 O1 O2 O3
// probe40: __enzyme_batch as Enzyme's BatchMode tests declare it: `R __enzyme_batch(...)` (C++
// variadic without a fixed parameter), a fully typed declaration over char pointers into
// packed records, and a batched function that calls __enzyme_fwddiff itself.
#include <cmath>
#include <cstring>
#include "fz_cxx.h"
struct B2 { double a, b; };
extern B2 __enzyme_batch(...);
extern void __enzyme_batch(void *, int, int, char *, char *, char *, char *);
extern int enzyme_width, enzyme_vector, enzyme_scalar;

#pragma pack(push, 1)
struct Rec { int tag[3]; double x; float y; double res; };
#pragma pack(pop)

static double f(double g, double x) { return g * x * x * x + std::sin(x); }
static double dfdx(double g, double x) { return __enzyme_fwddiff<double>((void *)f, g, 0.0, x, 1.0); }
static void rec(char *p) {
  double x;
  float y;
  std::memcpy(&x, p + 12, 8);
  std::memcpy(&y, p + 20, 4);
  double r = x * y;
  std::memcpy(p + 24, &r, 8);
}

int main() {
  const double g = 2.0, x0 = 0.7, x1 = -1.4;
  B2 p = __enzyme_batch((void *)f, enzyme_width, 2, enzyme_scalar, g, enzyme_vector, x0, x1);
  fz_check("batch lane 0", p.a, f(g, x0), 1e-15);
  fz_check("batch lane 1", p.b, f(g, x1), 1e-15);
  B2 dv = __enzyme_batch((void *)dfdx, enzyme_width, 2, enzyme_vector, g, 3.0, enzyme_vector, x0, x1);
  fz_check("batched fwddiff lane 0", dv.a, 3 * g * x0 * x0 + std::cos(x0), 1e-12);
  fz_check("batched fwddiff lane 1", dv.b, 3 * 3.0 * x1 * x1 + std::cos(x1), 1e-12);
  B2 ds = __enzyme_batch((void *)dfdx, enzyme_width, 2, enzyme_scalar, g, enzyme_vector, x0, x1);
  fz_check("batched fwddiff scalar g", ds.b, 3 * g * x1 * x1 + std::cos(x1), 1e-12);
  Rec r[4];
  for (int k = 0; k < 4; k++) { r[k].x = 1.5 + k; r[k].y = 0.25f * (k + 1); r[k].res = 0; }
  __enzyme_batch((void *)rec, enzyme_width, 4, (char *)&r[0], (char *)&r[1], (char *)&r[2], (char *)&r[3]);
  for (int k = 0; k < 4; k++) fz_check("packed record lane", r[k].res, (1.5 + k) * (0.25 * (k + 1)), 1e-15);
  return fz_finish();
}
