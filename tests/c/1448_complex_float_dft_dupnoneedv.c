// OPT: O0 O2
// `float _Complex` data: a three-bin DFT of a windowed signal (cexpf, cabsf, csinf,
// crealf/cimagf) reduced to a float, differentiated with respect to the interleaved
// complex samples and the window's slope; vector forward mode (`enzyme_width, 2`) with
// `enzyme_dupnoneedv` (Enzyme's strided shadows, primal not needed) seeding the real and
// imaginary part of one sample per call. Oracles: five-point differences in float
// (tolerance 2e-3), the two lanes = the reverse gradient's real and imaginary parts.
#include "fz_test.h"
#include "fz_modes.h"
#include <complex.h>
// reverse (float shadows of interleaved complex data) vs forward, width 2 dupnoneedv
extern int enzyme_dupnoneedv;
extern float __enzyme_autodiff_cf(void *, ...);
typedef struct { float d[2]; } f2;
extern f2 __enzyme_fwddiff_f2(void *, ...);
float power(const float _Complex *z, int n, float a) {
  float s = 0;
  for (int k = 0; k < 3; k++) {
    float _Complex acc = 0;
    for (int j = 0; j < n; j++) acc += z[j] * cexpf(-I * (2.0f * 3.14159265f * k * j / n)) * (1.0f - a * j / n);
    s += cabsf(acc) + crealf(csinf(acc * 0.3f)) * cimagf(acc);
  }
  return s;
}
static float _Complex Z[6]; static float A = 0.4f;
static float ev(void *u) { (void)u; return power(Z, 6, A); }
int main(void) {
  for (int j = 0; j < 6; j++) Z[j] = (0.3f + 0.1f * j) + I * (0.2f - 0.15f * j);
  float _Complex dz[6] = {0};
  float da = __enzyme_autodiff_cf((void *)power, enzyme_dup, Z, dz, enzyme_const, 6, A);
  fz_check("d/da", da, fz_fd_ptrf(ev, 0, &A), 2e-3);
  for (int j = 0; j < 6; j++) {
    fz_check("d/dre", crealf(dz[j]), fz_fd_ptrf(ev, 0, &((float *)Z)[2 * j]), 2e-3);
    fz_check("d/dim", cimagf(dz[j]), fz_fd_ptrf(ev, 0, &((float *)Z)[2 * j + 1]), 2e-3);
  }
  // width 2: lane 0 = e_re(j), lane 1 = e_im(j), strided in one block; a's tangents 0
  for (int j = 0; j < 6; j++) {
    float _Complex t[2][6] = {{0}};
    t[0][j] = 1; t[1][j] = I;
    float at[2] = {0, 0};
    f2 r = __enzyme_fwddiff_f2((void *)power, enzyme_width, 2, enzyme_dupnoneedv, (int)sizeof t[0], Z, t[0], enzyme_const, 6, (double)A, 0.0, 0.0);
    (void)at;
    fz_check("width 2 lane re", r.d[0], crealf(dz[j]), 1e-5);
    fz_check("width 2 lane im", r.d[1], cimagf(dz[j]), 1e-5);
  }
  return fz_finish();
}
