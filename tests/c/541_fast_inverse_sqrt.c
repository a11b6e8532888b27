// OPT: O0 O2
// Integer bit tricks on floats (issue 16): Quake's fast inverse square root
// (`i = 0x5f3759df - (i >> 1)` on a float's bits, by memcpy and by a union), its double
// version (0x5fe6eb50c7b537a9), and the cube-root seed `i / 3 + 709921077`, each
// followed by Newton steps in floating point. As in Enzyme, the integer part is an
// initial guess with zero derivative and the Newton steps carry the derivative.
// Oracle: the analytic derivative of the approximation with the seed y0 held constant
// (one step y1 = y0 (3/2 - x/2 y0^2): dy1/dx = -y0^3/2; two steps:
// dy2/dx = dy1 (3/2 - 3/2 x y1^2) - y1^3/2), in reverse and forward mode.
#include "fz_test.h"
#include <stdint.h>
#include <string.h>

extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);

float q_rsqrt(float number) {
  const float x2 = number * 0.5f;
  float y = number;
  int32_t i;
  memcpy(&i, &y, sizeof i);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y, &i, sizeof y);
  y = y * (1.5f - (x2 * y * y));
  return y;
}

float q_rsqrt_union(float number) {
  union {
    float f;
    int32_t i;
  } u;
  u.f = number;
  u.i = 0x5f3759df - (u.i >> 1);
  float y = u.f;
  y = y * (1.5f - (number * 0.5f * y * y));
  y = y * (1.5f - (number * 0.5f * y * y));
  return y;
}

double q_rsqrt_double(double x) {
  int64_t i;
  double y;
  memcpy(&i, &x, 8);
  i = 0x5fe6eb50c7b537a9LL - (i >> 1);
  memcpy(&y, &i, 8);
  return y * (1.5 - 0.5 * x * y * y);
}

// Cube root: seed from the bits, one Newton step y1 = (2 y0 + x / y0^2) / 3.
float fast_cbrt(float x) {
  uint32_t i;
  memcpy(&i, &x, 4);
  i = i / 3 + 709921077u;
  float y;
  memcpy(&y, &i, 4);
  return (2.0f * y + x / (y * y)) / 3.0f;
}

static float seed_f(float x) {
  int32_t i;
  memcpy(&i, &x, 4);
  i = 0x5f3759df - (i >> 1);
  float y;
  memcpy(&y, &i, 4);
  return y;
}
static double seed_d(double x) {
  int64_t i;
  memcpy(&i, &x, 8);
  i = 0x5fe6eb50c7b537a9LL - (i >> 1);
  double y;
  memcpy(&y, &i, 8);
  return y;
}
static float seed_cbrt(float x) {
  uint32_t i;
  memcpy(&i, &x, 4);
  i = i / 3 + 709921077u;
  float y;
  memcpy(&y, &i, 4);
  return y;
}

int main(void) {
  for (int k = 0; k < 5; k++) {
    float x = 0.3f + 1.7f * (float)k;
    float y0 = seed_f(x);
    float want1 = -0.5f * y0 * y0 * y0;
    fz_check("reverse q_rsqrt", __enzyme_autodiff_f((void *)q_rsqrt, x), want1, 1e-6);
    fz_check("forward q_rsqrt", __enzyme_fwddiff_f((void *)q_rsqrt, x, 1.0f), want1, 1e-6);
    float y1 = y0 * (1.5f - 0.5f * x * y0 * y0);
    float want2 = want1 * (1.5f - 1.5f * x * y1 * y1) - 0.5f * y1 * y1 * y1;
    fz_check("reverse two steps (union)", __enzyme_autodiff_f((void *)q_rsqrt_union, x), want2,
             1e-5);
    fz_check("forward two steps (union)", __enzyme_fwddiff_f((void *)q_rsqrt_union, x, 1.0f),
             want2, 1e-5);
    double xd = 0.3 + 1.7 * k, yd = seed_d(xd);
    double dd = __enzyme_autodiff((void *)q_rsqrt_double, xd);
    fz_check("reverse q_rsqrt double", dd, -0.5 * yd * yd * yd, 1e-12);
    float yc = seed_cbrt(x);
    fz_check("reverse fast_cbrt", __enzyme_autodiff_f((void *)fast_cbrt, x),
             1.0f / (3.0f * yc * yc), 1e-6);
  }
  return fz_finish();
}
