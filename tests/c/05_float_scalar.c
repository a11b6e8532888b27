// OPT: O0 O2
// f32 active scalars through typed prototypes (no variadic promotion):
// one float -> float, two floats -> struct of two floats.
#include "fz_test.h"

typedef struct { float d0, d1; } fgrad2;
extern float __enzyme_autodiff_f1(void *, float);
extern fgrad2 __enzyme_autodiff_f2(void *, float, float);

float g1(float x) { return x * x * x - 3.0f * x / (1.0f + x * x); }
float g2(float x, float y) { return x * y - y / x + x * x * y; }

int main(void) {
  fz_seed(5);
  for (int t = 0; t < 4; t++) {
    float x = (float)fz_uniform(0.5, 2.0), y = (float)fz_uniform(-2.0, 2.0);
    float d = __enzyme_autodiff_f1((void *)g1, x);
    double xd = x, yd = y;
    double q = 1.0 + xd * xd;
    double want = 3.0 * xd * xd - 3.0 * (q - 2.0 * xd * xd) / (q * q);
    fz_check("dg1/dx (f32)", d, want, 1e-5);
    fgrad2 g = __enzyme_autodiff_f2((void *)g2, x, y);
    fz_check("dg2/dx (f32)", g.d0, yd + yd / (xd * xd) + 2.0 * xd * yd, 1e-5);
    fz_check("dg2/dy (f32)", g.d1, xd - 1.0 / xd + xd * xd, 1e-5);
  }
  return fz_finish();
}
