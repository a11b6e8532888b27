// OPT: O0 O2
// VARIANTS: all
// Forward mode of functions taking a `double _Complex` by value, called the natural way:
// `__enzyme_fwddiff(f, z, dz)`. The x86-64 ABI passes `z` as two doubles, so the call
// reaches the pass as `z.re, z.im, dz.re, dz.im`; read one operand at a time that was
// `re, dre, im, dim`, a silently wrong tangent (Enzyme reads it that way). The clang
// plugin (loaded by `ferrozyme cc` and by `clang -fplugin=`) names the hook
// `__enzyme_fwddiff.fzargs.<digits>` and the pass reads `z, dz` as written (README, "What
// the pass differentiates at the hook boundary"). Truths: a holomorphic f's tangent is
// f'(z) dz (analytic); |z|^2 and a mixed real function are not holomorphic: each part of
// the tangent is checked against central differences in the direction dz. Scalar,
// `enzyme_dup`/`enzyme_const` markers, a complex argument between real ones, a function
// returning `double _Complex` (its tangent is a `double _Complex`) and `enzyme_width` 2
// and 3 (each lane against the scalar truth).
#include "fz_test.h"
#include <complex.h>

extern int enzyme_width, enzyme_dup, enzyme_const;
double _Complex __enzyme_fwddiff(void *, ...);
double __enzyme_fwddiff_d(void *, ...);
typedef struct { double _Complex l[2]; } lanes2;
typedef struct { double _Complex l[3]; } lanes3;
lanes2 __enzyme_fwddiff_w2(void *, ...);
lanes3 __enzyme_fwddiff_w3(void *, ...);
typedef struct { double l[2]; } dlanes2;
dlanes2 __enzyme_fwddiff_dw2(void *, ...);

// Holomorphic: f'(z) = cos(z) z + sin(z) + 2 z.
__attribute__((noinline)) double _Complex holo(double _Complex z) { return csin(z) * z + z * z; }
static double _Complex holo_prime(double _Complex z) { return ccos(z) * z + csin(z) + 2.0 * z; }

// Real-valued and not holomorphic: |z|^2 = x^2 + y^2, with a real factor around it.
__attribute__((noinline)) double norm2(double a, double _Complex z, double b) {
  double x = creal(z), y = cimag(z);
  return a * (x * x + y * y) + b * x * y * y;
}

// Complex-valued, not holomorphic: conj(z) z^2 + i x.
__attribute__((noinline)) double _Complex mixed(double _Complex z) {
  return conj(z) * z * z + I * creal(z);
}

// Central differences of f along dz (complex result).
static double _Complex fd_c(double _Complex (*f)(double _Complex), double _Complex z,
                            double _Complex dz) {
  double h = 1e-6;
  return (f(z + h * dz) - f(z - h * dz)) / (2 * h);
}
static double fd_norm2(double a, double _Complex z, double b, double da, double _Complex dz,
                       double db) {
  double h = 1e-6;
  return (norm2(a + h * da, z + h * dz, b + h * db) - norm2(a - h * da, z - h * dz, b - h * db)) /
         (2 * h);
}

static void check_c(const char *what, double _Complex got, double _Complex want, double tol) {
  char buf[96];
  snprintf(buf, sizeof buf, "%s re", what);
  fz_check(buf, creal(got), creal(want), tol);
  snprintf(buf, sizeof buf, "%s im", what);
  fz_check(buf, cimag(got), cimag(want), tol);
}

int main(void) {
  double _Complex z = 0.7 + 0.3 * I, dz = 0.2 - 0.5 * I, dz2 = 1.0 + 2.0 * I, dz3 = -0.4 * I;

  // Holomorphic: dz f'(z), unmarked and with enzyme_dup.
  check_c("holo", __enzyme_fwddiff((void *)holo, z, dz), holo_prime(z) * dz, 1e-12);
  check_c("holo dup", __enzyme_fwddiff((void *)holo, enzyme_dup, z, dz), holo_prime(z) * dz,
          1e-12);
  check_c("holo fd", __enzyme_fwddiff((void *)holo, z, dz), fd_c(holo, z, dz), 1e-7);
  // The old manual order is still read as written when the parts are passed as doubles.
  check_c("holo parts",
          __enzyme_fwddiff((void *)holo, creal(z), creal(dz), cimag(z), cimag(dz)),
          holo_prime(z) * dz, 1e-12);

  // Not holomorphic: both parts of the tangent.
  check_c("mixed", __enzyme_fwddiff((void *)mixed, z, dz), fd_c(mixed, z, dz), 1e-7);
  check_c("mixed along 1", __enzyme_fwddiff((void *)mixed, z, (double _Complex)1.0),
          fd_c(mixed, z, 1.0), 1e-7);
  check_c("mixed along i", __enzyme_fwddiff((void *)mixed, z, (double _Complex)I),
          fd_c(mixed, z, I), 1e-7);

  // A complex argument between real ones, with markers.
  double a = 1.3, b = -0.6;
  fz_check("norm2 all", __enzyme_fwddiff_d((void *)norm2, a, 0.5, z, dz, b, 2.0),
           fd_norm2(a, z, b, 0.5, dz, 2.0), 1e-7);
  fz_check("norm2 z only",
           __enzyme_fwddiff_d((void *)norm2, enzyme_const, a, enzyme_dup, z, dz, enzyme_const, b),
           fd_norm2(a, z, b, 0, dz, 0), 1e-7);
  // |z|^2 along dz: 2 (x dx + y dy), analytic (a = 1, b = 0).
  fz_check("|z|^2", __enzyme_fwddiff_d((void *)norm2, enzyme_const, 1.0, z, dz, enzyme_const, 0.0),
           2 * (creal(z) * creal(dz) + cimag(z) * cimag(dz)), 1e-12);
  // enzyme_const z: only a and b carry tangents.
  fz_check("norm2 const z",
           __enzyme_fwddiff_d((void *)norm2, a, 0.5, enzyme_const, z, b, 2.0),
           fd_norm2(a, z, b, 0.5, 0, 2.0), 1e-7);

  // Vector mode: one tangent per lane, each a double _Complex.
  lanes2 w2 = __enzyme_fwddiff_w2((void *)holo, enzyme_width, 2, z, dz, dz2);
  check_c("holo w2 lane 1", w2.l[0], holo_prime(z) * dz, 1e-12);
  check_c("holo w2 lane 2", w2.l[1], holo_prime(z) * dz2, 1e-12);
  lanes3 w3 = __enzyme_fwddiff_w3((void *)mixed, enzyme_width, 3, enzyme_dup, z, dz, dz2, dz3);
  check_c("mixed w3 lane 1", w3.l[0], fd_c(mixed, z, dz), 1e-7);
  check_c("mixed w3 lane 2", w3.l[1], fd_c(mixed, z, dz2), 1e-7);
  check_c("mixed w3 lane 3", w3.l[2], fd_c(mixed, z, dz3), 1e-7);
  dlanes2 n2 = __enzyme_fwddiff_dw2((void *)norm2, enzyme_width, 2, enzyme_const, a, z, dz, dz2,
                                    enzyme_const, b);
  fz_check("norm2 w2 lane 1", n2.l[0], fd_norm2(a, z, b, 0, dz, 0), 1e-7);
  fz_check("norm2 w2 lane 2", n2.l[1], fd_norm2(a, z, b, 0, dz2, 0), 1e-7);
  return fz_finish();
}
