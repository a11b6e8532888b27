// OPT: O0 O1 O2 O3
// Interleaved (re, im) pairs: stride-2 accesses that the vectorizer turns
// into wide loads + shufflevector. f = sum |z_i * c_i|^2 + Re(z_i^2).
#include "fz_test.h"

double f(const double *z, const double *c, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double a = z[2 * i], b = z[2 * i + 1];
    double p = c[2 * i], q = c[2 * i + 1];
    double re = a * p - b * q, im = a * q + b * p;
    s += re * re + im * im + (a * a - b * b);
  }
  return s;
}

/* element-wise complex multiply into an output buffer */
void cmul(const double *z, const double *c, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double a = z[2 * i], b = z[2 * i + 1], p = c[2 * i], q = c[2 * i + 1];
    out[2 * i] = a * p - b * q;
    out[2 * i + 1] = a * q + b * p;
  }
}

#define N 256

int main(void) {
  fz_seed(30);
  static double z[2 * N], c[2 * N], dz[2 * N], dc[2 * N], want[2 * N], out[2 * N], dout[2 * N],
      w[2 * N];
  fz_fill(z, 2 * N, -1, 1);
  fz_fill(c, 2 * N, -1, 1);
  fz_zero(dz, 2 * N);
  fz_zero(dc, 2 * N);
  __enzyme_autodiff((void *)f, enzyme_dup, z, dz, enzyme_dup, c, dc, enzyme_const, N);
  /* |zc|^2 = (a^2+b^2)(p^2+q^2) */
  for (int i = 0; i < N; i++) {
    double a = z[2 * i], b = z[2 * i + 1], p = c[2 * i], q = c[2 * i + 1];
    double m = p * p + q * q;
    want[2 * i] = 2.0 * a * m + 2.0 * a;
    want[2 * i + 1] = 2.0 * b * m - 2.0 * b;
  }
  fz_check_arr("dz", dz, want, 2 * N, 1e-11);
  for (int i = 0; i < N; i++) {
    double a = z[2 * i], b = z[2 * i + 1], p = c[2 * i], q = c[2 * i + 1];
    double r = a * a + b * b;
    want[2 * i] = 2.0 * p * r;
    want[2 * i + 1] = 2.0 * q * r;
  }
  fz_check_arr("dc", dc, want, 2 * N, 1e-11);

  fz_fill(w, 2 * N, -1, 1);
  memcpy(dout, w, sizeof dout);
  fz_zero(dz, 2 * N);
  __enzyme_autodiff((void *)cmul, enzyme_dup, z, dz, enzyme_const, c, enzyme_dup, out, dout,
                    enzyme_const, N);
  /* d/da = p*wr + q*wi ; d/db = -q*wr + p*wi */
  for (int i = 0; i < N; i++) {
    double p = c[2 * i], q = c[2 * i + 1], wr = w[2 * i], wi = w[2 * i + 1];
    want[2 * i] = p * wr + q * wi;
    want[2 * i + 1] = -q * wr + p * wi;
  }
  fz_check_arr("cmul dz", dz, want, 2 * N, 1e-10);
  return fz_finish();
}
