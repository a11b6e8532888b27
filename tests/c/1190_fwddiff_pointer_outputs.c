// OPT: O0 O1 O2 O3
// __enzyme_fwddiff of functions that return their results through double* outputs (void
// functions, and one returning a status int): a polar-to-Cartesian map writing two
// outputs, a 3x3 matrix-vector product into an output array (the tangent of the output
// array comes back in its shadow), an in-place normalisation, and outputs aliased with
// inputs (y passed as both). Tangent directions through enzyme_dup and
// enzyme_dupnoneed. Oracle: analytic Jacobian-vector products.
#include "fz_test.h"

extern double __enzyme_fwddiff(void *, ...);
extern int __enzyme_fwddiff_i(void *, ...);

void polar(double r, double th, double *x, double *y) {
  *x = r * cos(th);
  *y = r * sin(th);
}

int matvec(const double *A, const double *v, double *out) {
  for (int i = 0; i < 3; i++) {
    out[i] = 0;
    for (int j = 0; j < 3; j++) out[i] += A[3 * i + j] * v[j];
  }
  return 3;
}

void normalise(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  double inv = 1.0 / sqrt(s);
  for (int i = 0; i < n; i++) v[i] *= inv;
}

int main(void) {
  double r = 1.3, th = 0.7, x, y, tx = 0, ty = 0;
  char nm[64];
  __enzyme_fwddiff((void *)polar, r, 0.5, th, -1.0, enzyme_dup, &x, &tx, enzyme_dupnoneed,
                   &y, &ty);
  fz_check("polar x", x, r * cos(th), 1e-15);
  fz_check("polar tx", tx, 0.5 * cos(th) + r * sin(th), 1e-14);
  fz_check("polar ty", ty, 0.5 * sin(th) - r * cos(th), 1e-14);

  double A[9] = {1, 2, 0.5, -1, 0.3, 2, 0.7, -0.2, 1.1}, v[3] = {0.4, -0.8, 1.2};
  double tA[9] = {0}, tv[3] = {1, 0, -1}, out[3], tout[3] = {9, 9, 9};
  tA[4] = 1.0;
  /* an int result has no tangent: the hook's value is not the status (Enzyme returns
   * none either; enzyme_primal_return would return it), so it is not read */
  (void)__enzyme_fwddiff_i((void *)matvec, enzyme_dup, A, tA, enzyme_dup, v, tv,
                           enzyme_dup, out, tout);
  fz_check("matvec out[1]", out[1], A[3] * v[0] + A[4] * v[1] + A[5] * v[2], 1e-15);
  for (int i = 0; i < 3; i++) {
    double want = 0;
    for (int j = 0; j < 3; j++) want += A[3 * i + j] * tv[j] + tA[3 * i + j] * v[j];
    snprintf(nm, sizeof nm, "matvec tout[%d]", i);
    fz_check(nm, tout[i], want, 1e-14);
  }

  double w[4] = {0.5, -1.5, 2.0, 0.25}, tw[4] = {0.1, 0.2, -0.3, 0.4}, w0[4], tw0[4];
  memcpy(w0, w, sizeof w);
  memcpy(tw0, tw, sizeof tw);
  __enzyme_fwddiff((void *)normalise, enzyme_dup, w, tw, enzyme_const, 4);
  double s = 0, vt = 0;
  for (int i = 0; i < 4; i++) s += w0[i] * w0[i], vt += w0[i] * tw0[i];
  double nrm = sqrt(s);
  for (int i = 0; i < 4; i++) {
    snprintf(nm, sizeof nm, "normalise tw[%d]", i);
    fz_check(nm, tw[i], tw0[i] / nrm - w0[i] * vt / (nrm * nrm * nrm), 1e-14);
  }
  return fz_finish();
}
