// OPT: O0 O2
// VARIANTS: all
// The other complex kinds at the hook boundary, next to `double _Complex` by value
// (1465-1467): `enzyme_dup` of a `double _Complex *` (an array of complex numbers and
// its shadow, forward and reverse: pointers never needed the clang plugin's help), a
// `long double _Complex` by value in forward mode (the x86-64 ABI passes it in memory:
// one `byval` operand for the value and one for its tangent, read as written), and a
// `float _Complex` by value (one `<2 x float>`), also with `enzyme_width` 2. (A `long
// double _Complex` by value in reverse mode is refused: tests/errors/
// cplx39_long_double_complex_reverse.c.) Truths: analytic derivatives of z^2, z^3 and
// sum |z_k|^2 and central differences.
#include "fz_test.h"
#include <complex.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
double __enzyme_fwddiff_d(void *, ...);
void __enzyme_autodiff_v(void *, ...);
long double _Complex __enzyme_fwddiff_ld(void *, ...);
float _Complex __enzyme_fwddiff_f(void *, ...);
typedef struct { float _Complex l[2]; } fl2;
fl2 __enzyme_fwddiff_fw2(void *, ...);

#define N 4
__attribute__((noinline)) double energy(const double _Complex *z, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += creal(z[k]) * creal(z[k]) + cimag(z[k]) * cimag(z[k]) + creal(z[k] * z[k]);
  return s;
}
__attribute__((noinline)) void cube(double _Complex *z, int n) {
  for (int k = 0; k < n; k++) z[k] = z[k] * z[k] * z[k];
}
__attribute__((noinline)) long double _Complex sqrl(long double _Complex z) { return z * z + 3.0L * z; }
__attribute__((noinline)) float _Complex cubef(float _Complex z) { return z * z * z; }

int main(void) {
  double _Complex z[N], dz[N];
  for (int k = 0; k < N; k++) z[k] = 0.3 * (k + 1) - 0.2 * I * k, dz[k] = 0.5 - 0.25 * I * k;
  // d energy = sum 2 x dx + 2 y dy + Re(2 z dz).
  double want = 0;
  for (int k = 0; k < N; k++)
    want += 2 * creal(z[k]) * creal(dz[k]) + 2 * cimag(z[k]) * cimag(dz[k]) + creal(2.0 * z[k] * dz[k]);
  fz_check("energy fwd (pointer)", __enzyme_fwddiff_d((void *)energy, enzyme_dup, z, dz, enzyme_const, N),
           want, 1e-12);
  double _Complex g[N] = {0};
  __enzyme_autodiff_v((void *)energy, enzyme_dup, z, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    // dE/dx = 2x + 2x, dE/dy = 2y - 2y.
    fz_check("energy rev dx", creal(g[k]), 4 * creal(z[k]), 1e-12);
    fz_check("energy rev dy", cimag(g[k]), 0.0, 1e-12);
  }
  // In place z <- z^3: the reverse pass maps the seed w to conj(3 z^2) w (as a pair of
  // real adjoints: (dx, dy) <- J^T (wx, wy)).
  double _Complex zc[N], w[N], z0[N];
  for (int k = 0; k < N; k++) z0[k] = zc[k] = z[k], w[k] = 1.0 + 0.5 * I * k;
  __enzyme_autodiff_v((void *)cube, enzyme_dup, zc, w, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double _Complex want_k = conj(3.0 * z0[k] * z0[k]) * (1.0 + 0.5 * I * k);
    fz_check("cube rev re", creal(w[k]), creal(want_k), 1e-12);
    fz_check("cube rev im", cimag(w[k]), cimag(want_k), 1e-12);
  }

  long double _Complex lz = 0.75L - 1.25L * I, ldz = 0.5L + 2.0L * I;
  long double _Complex lt = __enzyme_fwddiff_ld((void *)sqrl, lz, ldz);
  long double _Complex lw = (2.0L * lz + 3.0L) * ldz;
  fz_check("long double complex re", (double)creall(lt), (double)creall(lw), 1e-15);
  fz_check("long double complex im", (double)cimagl(lt), (double)cimagl(lw), 1e-15);

  float _Complex fz = 0.5f + 0.25f * I, fdz = 1.0f - 0.5f * I, fdz2 = 2.0f * I;
  float _Complex ft = __enzyme_fwddiff_f((void *)cubef, fz, fdz);
  float _Complex fw = 3.0f * fz * fz * fdz;
  fz_check("float complex re", crealf(ft), crealf(fw), 1e-6);
  fz_check("float complex im", cimagf(ft), cimagf(fw), 1e-6);
  fl2 f2 = __enzyme_fwddiff_fw2((void *)cubef, enzyme_width, 2, fz, fdz, fdz2);
  fz_check("float complex w2 lane 2 re", crealf(f2.l[1]), crealf(3.0f * fz * fz * fdz2), 1e-6);
  fz_check("float complex w2 lane 2 im", cimagf(f2.l[1]), cimagf(3.0f * fz * fz * fdz2), 1e-6);
  return fz_finish();
}
