// OPT: O0 O1 O2 O3
// probe40: vector modes with the hook declared to return a clang vector
// (`vector_size(32)`, `ext_vector_type(2)`) or an array struct: N shadows per pointer,
// `enzyme_dupv` strided shadows, scalars with N tangents, `__enzyme_batch` with
// `enzyme_vector`/`enzyme_scalar`, and vector reverse mode (`enzyme_width` in
// `__enzyme_autodiff`). Oracle: the analytic gradient (each lane a column of it) and the
// primal per lane.
#include "fz_test.h"
extern int enzyme_width, enzyme_dupv, enzyme_scalar, enzyme_vector, enzyme_dupnoneedv;
typedef double v4 __attribute__((vector_size(32)));
typedef double v2 __attribute__((ext_vector_type(2)));
typedef struct { double d[3]; } s3;
extern v4 __enzyme_fwddiff_v4(void *, ...);
extern v2 __enzyme_fwddiff_v2(void *, ...);
extern s3 __enzyme_fwddiff_s3(void *, ...);
extern v4 __enzyme_batch_v4(void *, ...);
extern void __enzyme_autodiff_w(void *, ...);

double f(const double *x, double a) {
  return a * x[0] * x[1] + sin(x[2]) * x[0];
}
double g(double a, double b) { return a * b * b + exp(a); }
void gradf(const double *x, double a, double *gx) {
  gx[0] = a * x[1] + sin(x[2]);
  gx[1] = a * x[0];
  gx[2] = cos(x[2]) * x[0];
}

int main(void) {
  double x[3] = {0.5, -1.2, 0.8}, a = 1.3;
  double gx[3];
  gradf(x, a, gx);
  double dfa = x[0] * x[1];
  /* four directions: e0, e1, e2, and a-direction */
  double t[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
  v4 r = __enzyme_fwddiff_v4((void *)f, enzyme_width, 4, enzyme_dup, x, t[0], t[1], t[2], t[3],
                             a, 0.0, 0.0, 0.0, 1.0);
  for (int k = 0; k < 3; k++) fz_check("v4 lane", r[k], gx[k], 1e-12);
  fz_check("v4 lane a", r[3], dfa, 1e-12);
  /* dupv: one strided block of shadows */
  double blk[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  s3 s = __enzyme_fwddiff_s3((void *)f, enzyme_width, 3, enzyme_dupv, sizeof(blk[0]), x, blk,
                             enzyme_const, a);
  for (int k = 0; k < 3; k++) fz_check("dupv lane", s.d[k], gx[k], 1e-12);
  /* ext_vector_type result, scalars with 2 tangents */
  v2 r2 = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, 0.7, 1.0, 0.0, 0.4, 0.0, 1.0);
  fz_check("v2 d/da", r2[0], 0.16 + exp(0.7), 1e-12);
  fz_check("v2 d/db", r2[1], 2 * 0.7 * 0.4, 1e-12);
  /* batch: g over 4 lanes of a, scalar b */
  double av[4] = {0.1, 0.2, 0.3, 0.4};
  v4 bg = __enzyme_batch_v4((void *)g, enzyme_width, 4, enzyme_vector, av[0], av[1], av[2], av[3],
                            enzyme_scalar, 2.0);
  for (int k = 0; k < 4; k++) fz_check("batch", bg[k], g(av[k], 2.0), 1e-14);
  /* vector reverse: two seeds of an output-less function via dup of x (returns double) */
  double gw[2][3] = {{0}};
  __enzyme_autodiff_w((void *)f, enzyme_width, 2, enzyme_dup, x, gw[0], gw[1], enzyme_const, a);
  for (int k = 0; k < 3; k++) {
    fz_check("rev w lane0", gw[0][k], gx[k], 1e-12);
    fz_check("rev w lane1", gw[1][k], gx[k], 1e-12);
  }
  return fz_finish();
}
