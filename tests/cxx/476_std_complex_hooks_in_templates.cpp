// OPT: O0 O2
// VARIANTS: all
// CFLAGS: -std=c++17
// Hook calls with complex arguments inside C++ templates: the call's argument types are
// known only once the template is instantiated (at the end of the translation unit), so
// the clang plugin also walks the instantiations before code generation emits them. A
// generic `tangent<T>(f, z, dz)` instantiated for std::complex<double> (two registers:
// read as written) and for double (one register), a member function of a class template
// holding its point, and a struct of two doubles with a user-defined operator. Truths:
// f'(z) dz for holomorphic f (analytic), FD for the real parts.
#include "fz_cxx.h"
#include <complex>

using C = std::complex<double>;
extern int enzyme_const, enzyme_dup;

template <typename T> __attribute__((noinline)) T poly(T z) { return z * z * z - T(2.0) * z; }
template <typename T> T poly_prime(T z) { return T(3.0) * z * z - T(2.0); }

template <typename T> T tangent(T z, T dz) { return __enzyme_fwddiff<T>((void *)poly<T>, z, dz); }

template <typename T> struct Point {
  T at;
  T along(T dz) const { return __enzyme_fwddiff<T>((void *)poly<T>, enzyme_dup, at, dz); }
};

struct V2 {
  double x, y;
};
__attribute__((noinline)) double v2energy(V2 v) { return v.x * v.x * v.y + std::sin(v.y); }
template <typename S> double v2tangent(S v, S dv) {
  return __enzyme_fwddiff<double>((void *)v2energy, v, dv);
}

int main() {
  C z(0.3, 0.8), dz(-0.5, 1.5);
  C t = tangent(z, dz), want = poly_prime(z) * dz;
  fz_check("template complex re", t.real(), want.real(), 1e-12);
  fz_check("template complex im", t.imag(), want.imag(), 1e-12);
  fz_check("template double", tangent(0.7, 2.0), poly_prime(0.7) * 2.0, 1e-12);
  Point<C> p{z};
  C u = p.along(C(0.0, 1.0)), wu = poly_prime(z) * C(0.0, 1.0);
  fz_check("member re", u.real(), wu.real(), 1e-12);
  fz_check("member im", u.imag(), wu.imag(), 1e-12);
  V2 v{1.2, -0.4}, dv{0.5, 2.0};
  fz_check("struct template", v2tangent(v, dv),
           (2 * v.x * v.y) * dv.x + (v.x * v.x + std::cos(v.y)) * dv.y, 1e-12);
  return fz_finish();
}
