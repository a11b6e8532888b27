// OPT: O0 O2
// `long double` data under vector modes: `enzyme_width, 2` forward mode with one strided
// block of long double tangents (`enzyme_dupv`, stride of 4 x 16 bytes) returning double
// lanes, and with two shadow pointers returning `long double` lanes; vector reverse mode
// (two adjoint shadows of a long double array). Oracles: the scalar reverse gradient's
// dot products with each lane's tangent, each reverse lane = the scalar gradient, and
// that gradient against central differences in long double.
#include "fz_test.h"
#include "fz_modes.h"
long double g(const long double *x, int n) { long double s = 0; for (int i = 0; i < n; i++) s += sinl(x[i]) * x[(i + 1) % n] + expm1l(x[i] * 0.5L); return s; }
double gd(const long double *x, int n) { return (double)g(x, n); }
typedef struct { long double d[2]; } l2;
extern l2 __enzyme_fwddiff_l2(void *, ...);
int main(void) {
  long double x[4] = {0.1L, 0.5L, -0.3L, 0.8L};
  long double gx[4] = {0};
  __enzyme_autodiff((void *)gd, enzyme_dup, x, gx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    long double k = x[i], h = 1e-7L;
    x[i] = k + h;
    long double fp = g(x, 4);
    x[i] = k - h;
    long double fm = g(x, 4);
    x[i] = k;
    fz_check("d/dx (central differences)", (double)gx[i], (double)((fp - fm) / (2 * h)), 1e-8);
  }
  long double t[2][4] = {{1, 0, 0, 0}, {0, 1, 1, 0}};
  fz_v2 r = __enzyme_fwddiff_v2((void *)gd, enzyme_width, 2, enzyme_dupv, (int)sizeof t[0], x, t[0], enzyme_const, 4);
  fz_check("lane 0", r.d[0], (double)gx[0], 1e-12);
  fz_check("lane 1", r.d[1], (double)(gx[1] + gx[2]), 1e-12);
  l2 r2 = __enzyme_fwddiff_l2((void *)g, enzyme_width, 2, enzyme_dup, x, t[0], t[1], enzyme_const, 4);
  fz_check("ld lane 0", (double)r2.d[0], (double)gx[0], 1e-12);
  fz_check("ld lane 1", (double)r2.d[1], (double)(gx[1] + gx[2]), 1e-12);
  long double gw0[4] = {0}, gw1[4] = {0};
  fz_v2 seeds = {{1.0, 2.0}};
  __enzyme_autodiff((void *)gd, enzyme_width, 2, enzyme_dup, x, gw0, gw1, enzyme_const, 4);
  for (int i = 0; i < 4; i++) { fz_check("rev lane 0", (double)gw0[i], (double)gx[i], 1e-12); fz_check("rev lane 1", (double)gw1[i], (double)gx[i], 1e-12); }
  return fz_finish();
}
