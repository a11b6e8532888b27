// OPT: O0 O1 O2 O3
// `enzyme_dupnoneed` outputs: a kernel that writes a normalized softmax into `out` and
// returns nothing the caller needs. Reverse mode with `enzyme_dupnoneed, out, dout`
// (the primal out may be left unwritten: only the shadow seed is read), forward mode
// with `enzyme_dupnoneed` of the output (tangents of out), and a function whose double
// result is not needed (`enzyme_dupnoneed` on an input that is also written: an
// in-place scale). Oracle: the analytic softmax Jacobian J = diag(p) - p p^T.
#include "fz_test.h"

extern void __enzyme_fwddiff_void(void *, ...);

enum { N = 5 };

void softmax(const double *z, double *out, int n) {
  double m = z[0];
  for (int i = 1; i < n; i++) m = z[i] > m ? z[i] : m;
  double s = 0;
  for (int i = 0; i < n; i++) {
    out[i] = exp(z[i] - m);
    s += out[i];
  }
  for (int i = 0; i < n; i++) out[i] /= s;
}

void scale_inplace(double *x, int n, double a) {
  for (int i = 0; i < n; i++) x[i] = a * x[i] * x[i];
}

int main(void) {
  double z[N] = {0.3, -1.2, 2.0, 0.7, 1.1}, p[N];
  softmax(z, p, N);
  double w[N] = {1.0, -0.5, 0.25, 2.0, -1.5};
  /* reverse: dz = J^T w */
  double out[N], dout[N], dz[N] = {0};
  memcpy(dout, w, sizeof w);
  __enzyme_autodiff((void *)softmax, enzyme_dup, z, dz, enzyme_dupnoneed, out, dout,
                    enzyme_const, N);
  double pw = 0;
  for (int i = 0; i < N; i++) pw += p[i] * w[i];
  char nm[48];
  for (int j = 0; j < N; j++) {
    snprintf(nm, sizeof nm, "reverse dz[%d]", j);
    fz_check(nm, dz[j], p[j] * (w[j] - pw), 1e-12);
    snprintf(nm, sizeof nm, "dout[%d] consumed", j);
    fz_check(nm, dout[j], 0, 0);
  }
  /* forward: dout = J v */
  double v[N] = {0.5, 0.1, -0.3, 0.0, 1.0}, tout[N];
  __enzyme_fwddiff_void((void *)softmax, enzyme_dup, z, v, enzyme_dupnoneed, out, tout,
                        enzyme_const, N);
  double pv = 0;
  for (int i = 0; i < N; i++) pv += p[i] * v[i];
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "forward dout[%d]", i);
    fz_check(nm, tout[i], p[i] * (v[i] - pv), 1e-12);
  }
  /* in place, dupnoneed: x <- a x^2; dx_in = 2 a x dx_out, da = sum x^2 dx_out */
  double x[N] = {0.4, -0.8, 1.5, 0.2, -0.1}, x0[N], dx[N] = {1, 2, 3, 4, 5}, a = 1.7;
  memcpy(x0, x, sizeof x);
  double da = __enzyme_autodiff((void *)scale_inplace, enzyme_dupnoneed, x, dx, enzyme_const, N,
                                enzyme_out, a);
  double want_da = 0;
  for (int i = 0; i < N; i++) {
    snprintf(nm, sizeof nm, "in-place dx[%d]", i);
    fz_check(nm, dx[i], 2 * a * x0[i] * (i + 1), 1e-12);
    want_da += x0[i] * x0[i] * (i + 1);
  }
  fz_check("in-place da", da, want_da, 1e-12);
  return fz_finish();
}
