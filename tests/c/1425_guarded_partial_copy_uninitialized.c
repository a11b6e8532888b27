// OPT: O0 O2
// enz37: a kernel with a constant bool guard: under it, 8 bytes memcpy'd into a
// three-double stack array whose other elements are never initialized, a radius from a
// loop, and a division of the stack array by it; the result is x[0] whatever the guard.
// The untaken branch and the half-initialized array must not disturb the gradient (1,
// 0, 0), in reverse and forward mode, with the guard false and true; and a variant that
// uses the divided values (only its third element left uninitialized). Oracles: analytic.
#include <stdbool.h>
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double kernel(double *v, bool fan) {
  double unit[3];
  double radius = 0.0;
  if (fan) {
    memcpy(&unit, v, 8);
    for (int i = 0; i < 2; ++i) radius += v[i];
    radius = sqrt(radius);
    if (radius > 0.0)
      for (int i = 0; i < 2; ++i) unit[i] /= radius;
  }
  return v[0];
}

__attribute__((noinline)) double kernel2(double *v, bool fan) {
  double unit[3];
  double radius = 0.0;
  unit[0] = 0.5;
  unit[1] = 1.0;
  if (fan) {
    memcpy(&unit, v, 8);
    for (int i = 0; i < 2; ++i) radius += v[i];
    radius = sqrt(radius);
    if (radius > 0.0)
      for (int i = 0; i < 2; ++i) unit[i] /= radius;
  }
  return v[0] + unit[0] + unit[1];
}

int main(void) {
  double v[3] = {1.0, 2.0, 3.0};
  for (int fan = 0; fan < 2; fan++) {
    double dv[3] = {0, 0, 0};
    __enzyme_autodiff((void *)kernel, enzyme_dup, v, dv, enzyme_const, (bool)fan);
    fz_check("kernel d/dv0", dv[0], 1, 0);
    fz_check("kernel d/dv1", dv[1], 0, 0);
    fz_check("kernel d/dv2", dv[2], 0, 0);
    fz_check("kernel forward",
             __enzyme_fwddiff((void *)kernel, enzyme_dup, v, (double[3]){0.5, 1, 1},
                              enzyme_const, (bool)fan),
             0.5, 0);
  }
  // kernel2, fan: v0 + v0 / R + 1 / R with R = sqrt(v0 + v1).
  double R = sqrt(v[0] + v[1]), dR = 0.5 / R;
  double w0 = 1 + 1 / R - v[0] * dR / (R * R) - dR / (R * R);
  double w1 = -v[0] * dR / (R * R) - dR / (R * R);
  double dv[3] = {0, 0, 0};
  __enzyme_autodiff((void *)kernel2, enzyme_dup, v, dv, enzyme_const, true);
  fz_check("kernel2 d/dv0", dv[0], w0, 1e-12);
  fz_check("kernel2 d/dv1", dv[1], w1, 1e-12);
  fz_check("kernel2 d/dv2", dv[2], 0, 0);
  fz_check("kernel2 forward",
           __enzyme_fwddiff((void *)kernel2, enzyme_dup, v, (double[3]){0.3, -0.7, 5},
                            enzyme_const, true),
           0.3 * w0 - 0.7 * w1, 1e-12);
  double dv2[3] = {0, 0, 0};
  __enzyme_autodiff((void *)kernel2, enzyme_dup, v, dv2, enzyme_const, false);
  fz_check("kernel2 no fan d/dv0", dv2[0], 1, 0);
  fz_check("kernel2 no fan d/dv1", dv2[1], 0, 0);
  return fz_finish();
}
