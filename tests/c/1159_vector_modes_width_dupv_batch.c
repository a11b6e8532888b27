// OPT: O0 O1 O2 O3
// Vector modes as users write them: a full 3x3 Jacobian of a vector function writing an
// output array, by __enzyme_fwddiff with enzyme_width 3 and one shadow pair per lane;
// the same with enzyme_dupv (one strided block of shadows); the gradient of a scalar
// function by width-4 forward mode returning a struct of 4 tangents (enzyme_const for an
// integer-like double parameter); vector reverse mode (enzyme_width 2 in
// __enzyme_autodiff: two output seeds at once); __enzyme_batch of a scalar function
// over 4 lanes. Oracle: analytic Jacobian.
#include "fz_test.h"

extern int enzyme_width, enzyme_dupv, enzyme_vector, enzyme_scalar;
extern void __enzyme_fwddiff_void(void *, ...);
typedef struct { double d[4]; } v4;
extern v4 __enzyme_fwddiff_v4(void *, ...);
extern void __enzyme_autodiff_w(void *, ...);
extern v4 __enzyme_batch_v4(void *, ...);

/* spherical -> cartesian */
void sph(const double *in, double *out) {
  double r = in[0], th = in[1], ph = in[2];
  out[0] = r * sin(th) * cos(ph);
  out[1] = r * sin(th) * sin(ph);
  out[2] = r * cos(th);
}

double energy(const double *x, double scale, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += scale * x[i] * x[i] * x[i] + sin(x[i] * x[(i + 1) % n]);
  return s;
}

double logistic(double z) { return 1.0 / (1.0 + exp(-z)); }

static void jac_sph(const double *in, double J[3][3]) {
  double r = in[0], th = in[1], ph = in[2];
  J[0][0] = sin(th) * cos(ph), J[0][1] = r * cos(th) * cos(ph), J[0][2] = -r * sin(th) * sin(ph);
  J[1][0] = sin(th) * sin(ph), J[1][1] = r * cos(th) * sin(ph), J[1][2] = r * sin(th) * cos(ph);
  J[2][0] = cos(th), J[2][1] = -r * sin(th), J[2][2] = 0;
}

int main(void) {
  double in[3] = {1.7, 0.6, -0.9}, out[3], J[3][3];
  jac_sph(in, J);
  double e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  double o0[3], o1[3], o2[3];
  __enzyme_fwddiff_void((void *)sph, enzyme_width, 3, enzyme_dup, in, e0, e1, e2,
                        enzyme_dup, out, o0, o1, o2);
  double *cols[3] = {o0, o1, o2};
  char nm[64];
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) {
      snprintf(nm, sizeof nm, "width-3 J[%d][%d]", i, k);
      fz_check(nm, cols[k][i], J[i][k], 1e-14);
    }
  /* enzyme_dupv: lane k's shadow at base + k * stride */
  double seeds[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, touts[3][3];
  __enzyme_fwddiff_void((void *)sph, enzyme_width, 3, enzyme_dupv, sizeof seeds[0], in,
                        seeds, enzyme_dupv, sizeof touts[0], out, touts);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) {
      snprintf(nm, sizeof nm, "dupv J[%d][%d]", i, k);
      fz_check(nm, touts[k][i], J[i][k], 1e-14);
    }
  /* gradient of a scalar function by width-4 forward mode */
  double x[4] = {0.3, -0.5, 1.1, 0.8}, scale = 0.7;
  double d0[4] = {1, 0, 0, 0}, d1[4] = {0, 1, 0, 0}, d2[4] = {0, 0, 1, 0}, d3[4] = {0, 0, 0, 1};
  v4 g = __enzyme_fwddiff_v4((void *)energy, enzyme_width, 4, enzyme_dup, x, d0, d1, d2, d3,
                             enzyme_const, scale, enzyme_const, 4);
  double grad[4];
  for (int j = 0; j < 4; j++) {
    int p = (j + 3) % 4, q = (j + 1) % 4;
    grad[j] = 3 * scale * x[j] * x[j] + cos(x[j] * x[q]) * x[q] + cos(x[p] * x[j]) * x[p];
    snprintf(nm, sizeof nm, "width-4 grad[%d]", j);
    fz_check(nm, g.d[j], grad[j], 1e-14);
  }
  /* vector reverse mode: two rows of J^T at once (seeds on out) */
  double gin_a[3] = {0}, gin_b[3] = {0}, sa[3] = {1, 0, 0}, sb[3] = {0, 0.5, 2};
  __enzyme_autodiff_w((void *)sph, enzyme_width, 2, enzyme_dup, in, gin_a, gin_b,
                      enzyme_dupnoneed, out, sa, sb);
  for (int k = 0; k < 3; k++) {
    snprintf(nm, sizeof nm, "width-2 reverse row0[%d]", k);
    fz_check(nm, gin_a[k], J[0][k], 1e-14);
    snprintf(nm, sizeof nm, "width-2 reverse (0.5 row1 + 2 row2)[%d]", k);
    fz_check(nm, gin_b[k], 0.5 * J[1][k] + 2 * J[2][k], 1e-14);
  }
  /* __enzyme_batch: the function over 4 lanes */
  v4 lg = __enzyme_batch_v4((void *)logistic, enzyme_width, 4, enzyme_vector, -2.0, 0.0, 0.5,
                            3.0);
  const double zs[4] = {-2.0, 0.0, 0.5, 3.0};
  for (int k = 0; k < 4; k++) {
    snprintf(nm, sizeof nm, "batch logistic lane %d", k);
    fz_check(nm, lg.d[k], 1.0 / (1.0 + exp(-zs[k])), 1e-15);
  }
  return fz_finish();
}
