// OPT: O0 O1 O2 O3
// Single precision through the entry points' struct returns, whose x86-64 ABI packs
// floats into vector registers: reverse mode with two and three `float` `enzyme_out`
// arguments (gradients returned as `struct {float, float}` = `<2 x float>` and
// `struct {float, float, float}` = `{<2 x float>, float}`), forward vector mode at width 4
// on a float function (tangents returned as `struct {float d[4]}` = two `<2 x float>`),
// and width 2 on a function of a float array (`enzyme_dup` with two shadow pointers).
// Oracle: analytic derivatives (tolerance 1e-5 relative for float).
#include "fz_test.h"

int enzyme_width;

typedef struct { float dx, dy; } g2f;
typedef struct { float dx, dy, dz; } g3f;
typedef struct { float d[4]; } v4f;
typedef struct { float d[2]; } v2f;

extern g2f __enzyme_autodiff_g2f(void *, ...);
extern g3f __enzyme_autodiff_g3f(void *, ...);
extern v4f __enzyme_fwddiff_v4f(void *, ...);
extern v2f __enzyme_fwddiff_v2f(void *, ...);

float f2(float x, float y) { return x * sinf(y) + expf(0.5f * x * y); }
float f3(float x, float y, float z) { return x * y * z + sqrtf(x * x + y * y + z * z); }
float fa(const float *a, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * a[i] * a[i] * a[i];
  return s;
}

int main(void) {
  float x = 0.7f, y = -1.3f, z = 0.4f;
  g2f g = __enzyme_autodiff_g2f((void *)f2, enzyme_out, x, enzyme_out, y);
  float e = expf(0.5f * x * y);
  fz_check("f2 dx", g.dx, sinf(y) + 0.5f * y * e, 1e-5);
  fz_check("f2 dy", g.dy, x * cosf(y) + 0.5f * x * e, 1e-5);

  g3f h = __enzyme_autodiff_g3f((void *)f3, enzyme_out, x, enzyme_out, y, enzyme_out, z);
  float r = sqrtf(x * x + y * y + z * z);
  fz_check("f3 dx", h.dx, y * z + x / r, 1e-5);
  fz_check("f3 dy", h.dy, x * z + y / r, 1e-5);
  fz_check("f3 dz", h.dz, x * y + z / r, 1e-5);

  /* width 4 over (x, y): lanes (1,0), (0,1), (1,1), (2,-1) */
  v4f t = __enzyme_fwddiff_v4f((void *)f2, enzyme_width, 4, x, 1.0f, 0.0f, 1.0f, 2.0f, y, 0.0f,
                               1.0f, 1.0f, -1.0f);
  float gx = sinf(y) + 0.5f * y * e, gy = x * cosf(y) + 0.5f * x * e;
  fz_check("width4 lane0", t.d[0], gx, 1e-5);
  fz_check("width4 lane1", t.d[1], gy, 1e-5);
  fz_check("width4 lane2", t.d[2], gx + gy, 1e-5);
  fz_check("width4 lane3", t.d[3], 2 * gx - gy, 1e-5);

  float a[5] = {0.5f, -0.25f, 1.5f, 0.75f, -1.0f};
  float u0[5] = {1, 0, 0, 0, 0}, u1[5] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
  v2f w = __enzyme_fwddiff_v2f((void *)fa, enzyme_width, 2, enzyme_dup, a, u0, u1, enzyme_const, 5);
  float want1 = 0;
  for (int i = 0; i < 5; i++) want1 += 0.5f * 3 * (i + 1) * a[i] * a[i];
  fz_check("array lane0", w.d[0], 3 * a[0] * a[0], 1e-5);
  fz_check("array lane1", w.d[1], want1, 1e-5);
  return fz_finish();
}
