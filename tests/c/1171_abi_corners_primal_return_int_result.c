// OPT: O0 O1 O2 O3
// Corners of the ABI that user code reaches for: __enzyme_fwddiff with
// enzyme_primal_return (the result and its tangent in one struct; a vector-mode version
// returning the result and N tangents), the gradient of a function that returns an int
// status and writes its float result through a pointer (no seed from the return: the
// seed is the output's shadow), a function returning float differentiated through a
// hook declared to return float with a float enzyme_out and a double enzyme_out
// together, and vector reverse mode (enzyme_width 2) of a function with an enzyme_out
// scalar (the hook returns one adjoint per lane). Oracle: analytic derivatives.
#include "fz_test.h"

extern int enzyme_width, enzyme_primal_return;
typedef struct { double y, dy; } yd;
extern yd __enzyme_fwddiff_yd(void *, ...);
typedef struct { double y, d0, d1, d2; } yd3;
extern yd3 __enzyme_fwddiff_yd3(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
typedef struct { float df; double dd; } fd_pair;
extern fd_pair __enzyme_autodiff_fd(void *, ...);
typedef struct { double lane0, lane1; } two;
extern two __enzyme_autodiff_two(void *, ...);

double model(const double *x, double s) { return s * x[0] * x[1] + sin(x[2]); }

int solve_status(const double *in, double *out, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) acc += in[i] * in[i];
  if (acc <= 0) return -1;
  *out = sqrt(acc);
  return 0;
}

float mixf(float a, double b) { return a * a * (float)b + (float)sin(b); }

double weighted(const double *x, double w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w * x[i] * x[i];
  return s;
}

int main(void) {
  double x[3] = {1.5, -0.5, 0.8}, tx[3] = {1, 0, 0};
  yd r = __enzyme_fwddiff_yd((void *)model, enzyme_primal_return, enzyme_dup, x, tx, 2.0, 0.0);
  fz_check("primal_return value", r.y, model(x, 2.0), 1e-15);
  fz_check("primal_return tangent", r.dy, 2.0 * x[1], 1e-15);
  double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  yd3 r3 = __enzyme_fwddiff_yd3((void *)model, enzyme_width, 3, enzyme_primal_return,
                                enzyme_dup, x, e0, e1, e2, enzyme_const, 2.0);
  fz_check("width-3 primal", r3.y, model(x, 2.0), 1e-15);
  fz_check("width-3 d/dx0", r3.d0, 2.0 * x[1], 1e-15);
  fz_check("width-3 d/dx1", r3.d1, 2.0 * x[0], 1e-15);
  fz_check("width-3 d/dx2", r3.d2, cos(x[2]), 1e-15);

  double in[3] = {3.0, 4.0, 12.0}, din[3] = {0}, out = 0, dout = 1.0;
  __enzyme_autodiff_void((void *)solve_status, enzyme_dup, in, din, enzyme_dup, &out, &dout,
                         enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    char nm[32];
    snprintf(nm, sizeof nm, "int-returning d/din[%d]", i);
    fz_check(nm, din[i], in[i] / 13.0, 1e-15);
  }
  fz_check("output written", out, 13.0, 0);

  float a = 1.25f;
  double b = 0.4;
  fd_pair g = __enzyme_autodiff_fd((void *)mixf, enzyme_out, a, enzyme_out, b);
  fz_check("float result d/da (float)", g.df, 2 * 1.25 * 0.4, 1e-6);
  fz_check("float result d/db (double)", g.dd, 1.25 * 1.25 + cos(0.4), 1e-6);

  double y[3] = {0.5, 1.0, -2.0}, dy0[3] = {0}, dy1[3] = {0};
  two dw = __enzyme_autodiff_two((void *)weighted, enzyme_width, 2, enzyme_dup, y, dy0, dy1,
                                 enzyme_out, 0.7, enzyme_const, 3);
  double sy = 0.25 + 1.0 + 4.0;
  fz_check("vector reverse d/dw lane 0", dw.lane0, sy, 1e-14);
  fz_check("vector reverse d/dw lane 1", dw.lane1, sy, 1e-14);
  fz_check("vector reverse dy lane 0", dy0[2], 2 * 0.7 * -2.0, 1e-14);
  fz_check("vector reverse dy lane 1", dy1[1], 2 * 0.7 * 1.0, 1e-14);
  return fz_finish();
}
