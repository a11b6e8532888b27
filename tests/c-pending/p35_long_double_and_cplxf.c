// OPT: O0 O1 O2 O3
// x87 long double arithmetic inside a double function, and float _Complex
// arithmetic (which clang lowers inline, no libcall, with -fcx-limited-range).
// CFLAGS: -fcx-limited-range
#include <complex.h>
#include "../c/fz_test.h"

double fld(double x, double y) {
  long double a = x, b = y;
  long double s = 0.0L;
  for (int i = 1; i <= 5; i++) s += a * a / (b + (long double)i) + sinl(a * b);
  return (double)s;
}

float fcf(const float *p) {
  float _Complex z = p[0] + I * p[1];
  float _Complex w = p[2] + I * p[3];
  float _Complex q = z * w + z * z;
  return crealf(q) + 2.0f * cimagf(q);
}

int main(void) {
  double x = 0.8, y = 1.7;
  fz_grad2 g = __enzyme_autodiff2((void *)fld, x, y);
  double wx = 0, wy = 0;
  for (int i = 1; i <= 5; i++) {
    wx += 2 * x / (y + i) + y * cos(x * y);
    wy += -x * x / ((y + i) * (y + i)) + x * cos(x * y);
  }
  fz_check("dfld/dx", g.d0, wx, 1e-10);
  fz_check("dfld/dy", g.d1, wy, 1e-10);

  float p[4] = {0.3f, -0.6f, 1.1f, 0.4f}, dp[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)fcf, enzyme_dup, p, dp);
  double a = p[0], b = p[1], c = p[2], d = p[3];
  /* q = (a+ib)(c+id) + (a+ib)^2 ; Re = ac - bd + a^2 - b^2 ; Im = ad + bc + 2ab */
  double want[4] = {c + 2 * a + 2 * (d + 2 * b), -d - 2 * b + 2 * (c + 2 * a), a + 2 * b,
                    -b + 2 * a};
  fz_check_arrf("dfcf", dp, (float[]){(float)want[0], (float)want[1], (float)want[2], (float)want[3]}, 4, 1e-5);
  return fz_finish();
}
