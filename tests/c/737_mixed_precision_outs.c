// OPT: O0 O1 O2 O3
// Active scalars of mixed precision in one call, the way Enzyme returns them: a `float`,
// a `double` and another `float` by value (`enzyme_out` implicit and explicit), an
// `enzyme_const` double between them, a pointer argument in the middle; the derivatives
// come back as a struct `{float, double, float}` in argument order. The function
// computes in both precisions (float math promoted to double and back). Oracle: analytic
// values (float tolerance for the float results).
#include "fz_test.h"

typedef struct { float da; double db; float dc; } mixed3;
extern mixed3 __enzyme_autodiff_mixed(void *, ...);

double model(float a, const double *w, double b, double k, float c) {
  float t = a * a * c;                 /* float arithmetic */
  double u = (double)t * w[0] + sin(b) * w[1];
  return u * k + (double)sqrtf(c) * b;
}

int main(void) {
  float a = 1.25f, c = 2.0f;
  double w[2] = {0.5, -1.5}, dw[2] = {0, 0}, b = 0.7, k = 3.0;
  mixed3 g = __enzyme_autodiff_mixed((void *)model, a, enzyme_dup, w, dw, enzyme_out, b,
                                     enzyme_const, k, c);
  double t = (double)(a * a * c);
  fz_check("d/da (float)", g.da, 2.0 * a * c * w[0] * k, 1e-6);
  fz_check("d/db (double)", g.db, cos(b) * w[1] * k + (double)sqrtf(c), 1e-12);
  fz_check("d/dc (float)", g.dc, a * a * w[0] * k + 0.5 / sqrt(c) * b, 1e-6);
  fz_check("d/dw0", dw[0], t * k, 1e-12);
  fz_check("d/dw1", dw[1], sin(b) * k, 1e-12);
  return fz_finish();
}
