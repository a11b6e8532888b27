// OPT: O0 O1 O2 O3
// Vector reverse mode (`enzyme_width, 3` in __enzyme_autodiff): three output seeds at
// once give three rows of the Jacobian of a polar-to-cartesian-with-scale map
// (void f(const double *in, double *out)), with the shadows passed one per lane
// (`enzyme_dup, in, din0, din1, din2`), and vector forward mode (`enzyme_width, 3` in
// __enzyme_fwddiff returning a struct of 3 tangents, `enzyme_dupv` strided shadows) for
// its columns. Oracle: the analytic Jacobian; rows and columns must agree with it.
#include "fz_test.h"

extern int enzyme_width, enzyme_dupv;
extern void __enzyme_autodiff_w3(void *, ...);
extern void __enzyme_fwddiff_w3(void *, ...);

void sph(const double *in, double *out) {
  double r = in[0], th = in[1], s = in[2];
  out[0] = s * r * cos(th);
  out[1] = s * r * sin(th);
  out[2] = r * r * s;
}

int main(void) {
  double in[3] = {1.7, 0.6, 0.9}, out[3];
  double r = in[0], th = in[1], s = in[2];
  double J[3][3] = {{s * cos(th), -s * r * sin(th), r * cos(th)},
                    {s * sin(th), s * r * cos(th), r * sin(th)},
                    {2 * r * s, 0, r * r}};
  double din[3][3] = {{0}}, dout[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff_w3((void *)sph, enzyme_width, 3, enzyme_dup, in, din[0], din[1], din[2],
                       enzyme_dup, out, dout[0], dout[1], dout[2]);
  char nm[48];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      snprintf(nm, sizeof nm, "row %d col %d (reverse lane)", i, j);
      fz_check(nm, din[i][j], J[i][j], 1e-12);
    }
  fz_check("out[2] primal", out[2], r * r * s, 1e-14);
  /* forward, strided shadows: lane k's tangent block at seeds + k*3 doubles */
  double seeds[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, touts[3][3];
  __enzyme_fwddiff_w3((void *)sph, enzyme_width, 3, enzyme_dupv, sizeof seeds[0], in, seeds,
                      enzyme_dupv, sizeof touts[0], out, touts);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) {
      snprintf(nm, sizeof nm, "col %d row %d (forward lane)", k, i);
      fz_check(nm, touts[k][i], J[i][k], 1e-12);
    }
  return fz_finish();
}
