// OPT: O0 O2
// `enzyme_dupv` on SCALAR arguments: lane i's tangent is loaded from
// (char*)dxs + i*stride. Tangents live in an array of structs
// {double dx, dy; int tag;} (stride = sizeof(struct), not sizeof(double)),
// width 3, mixed with an enzyme_dup pointer argument (3 shadow pointers)
// and an enzyme_const scalar. Lanes vs scalar forward calls and analytic.
#include "fz_test.h"
#include "fz_modes.h"

typedef struct { double dx, dy; int tag; } tan_t;

/* h(x, y, p[2], c) = x^2 p0 + y p1^2 + c x y */
double h(double x, double y, const double *p, double c) { return x * x * p[0] + y * p[1] * p[1] + c * x * y; }

int main(void) {
  fz_seed(224);
  for (int t = 0; t < 4; t++) {
    double x = fz_uniform(-1, 1), y = fz_uniform(-1, 1), c = fz_uniform(0.5, 2), p[2];
    fz_fill(p, 2, -1, 1);
    tan_t tv[3];
    double dp[3][2];
    for (int l = 0; l < 3; l++) {
      tv[l].dx = fz_uniform(-1, 1);
      tv[l].dy = fz_uniform(-1, 1);
      tv[l].tag = 1000 + l;
      fz_fill(dp[l], 2, -1, 1);
    }
    fz_v3 r = __enzyme_fwddiff_v3((void *)h, enzyme_width, 3, enzyme_dupv, (int)sizeof(tan_t), x,
                                  &tv[0].dx, enzyme_dupv, (int)sizeof(tan_t), y, &tv[0].dy, enzyme_dup,
                                  p, dp[0], dp[1], dp[2], enzyme_const, c);
    double gx = 2 * x * p[0] + c * y, gy = p[1] * p[1] + c * x, gp0 = x * x, gp1 = 2 * y * p[1];
    for (int l = 0; l < 3; l++) {
      double want = gx * tv[l].dx + gy * tv[l].dy + gp0 * dp[l][0] + gp1 * dp[l][1];
      double sc = __enzyme_fwddiff((void *)h, x, tv[l].dx, y, tv[l].dy, enzyme_dup, p, dp[l],
                                   enzyme_const, c);
      fz_mcheck("scalar dupv lane (analytic)", r.d[l], want, 1e-12);
      fz_mcheck("scalar dupv lane vs scalar mode", r.d[l], sc, 1e-14);
      fz_mcheck("tag untouched", tv[l].tag, 1000 + l, 0.0);
    }
    /* reverse oracle of the analytic partials */
    double gp[2] = {0, 0};
    fz_grad2 g = __enzyme_autodiff2((void *)h, x, y, enzyme_dup, p, gp, enzyme_const, c);
    fz_check("rev dh/dx", g.d0, gx, 1e-12);
    fz_check("rev dh/dy", g.d1, gy, 1e-12);
    fz_check("rev dh/dp0", gp[0], gp0, 1e-12);
    fz_check("rev dh/dp1", gp[1], gp1, 1e-12);
  }
  return fz_finish();
}
