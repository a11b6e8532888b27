// OPT: O0 O2
// VARIANTS: all
// CFLAGS: -std=c++17
// std::complex<double> passed by value to the hooks, the natural way: `__enzyme_fwddiff(f,
// z, dz)` through Enzyme's documented template declaration (`R __enzyme_fwddiff(void *,
// T...)`, instantiated with std::complex parameters) and through a C-style variadic one.
// The x86-64 ABI passes a std::complex<double> (libstdc++: one `_Complex double` member)
// as two doubles; the clang plugin names the hook by the arguments' source types, and
// the pass reads the value and its tangent as written (README, "What the pass
// differentiates at the hook boundary"). Forward mode (scalar, `enzyme_width` 2), reverse
// mode (the adjoint as a std::complex: dL/dRe z + i dL/dIm z) and `enzyme_const`. Truths:
// f'(z) dz for holomorphic f (analytic), central differences for real losses.
#include "fz_cxx.h"
#include <complex>

using C = std::complex<double>;
extern int enzyme_const, enzyme_width, enzyme_dup;
extern "C" double __enzyme_fwddiff_d(void *, ...);
struct CL2 {
  C l[2];
};

__attribute__((noinline)) C holo(C z) { return std::exp(z) * z + std::sin(z) / (z + 2.0); }
static C holo_prime(C z) {
  return std::exp(z) * z + std::exp(z) + (std::cos(z) * (z + 2.0) - std::sin(z)) / ((z + 2.0) * (z + 2.0));
}

__attribute__((noinline)) double loss(double a, C z) {
  C w = std::pow(z, 3) + a * std::conj(z);
  return std::norm(w) + a * std::arg(z);
}

int main() {
  C z(0.4, -0.9), dz(0.3, 0.2), dz2(-1.0, 0.5);
  C t = __enzyme_fwddiff<C>((void *)holo, z, dz);
  C want = holo_prime(z) * dz;
  fz_check("holo re", t.real(), want.real(), 1e-12);
  fz_check("holo im", t.imag(), want.imag(), 1e-12);
  C t2 = __enzyme_fwddiff<C>((void *)holo, enzyme_dup, z, dz2);
  fz_check("holo dup re", t2.real(), (holo_prime(z) * dz2).real(), 1e-12);
  fz_check("holo dup im", t2.imag(), (holo_prime(z) * dz2).imag(), 1e-12);
  CL2 w = __enzyme_fwddiff<CL2>((void *)holo, enzyme_width, 2, z, dz, dz2);
  fz_check("holo w2 lane 1 re", w.l[0].real(), want.real(), 1e-12);
  fz_check("holo w2 lane 1 im", w.l[0].imag(), want.imag(), 1e-12);
  fz_check("holo w2 lane 2 re", w.l[1].real(), (holo_prime(z) * dz2).real(), 1e-12);
  fz_check("holo w2 lane 2 im", w.l[1].imag(), (holo_prime(z) * dz2).imag(), 1e-12);

  double a = 1.3;
  double x = z.real(), y = z.imag();
  auto at = [&]() { return loss(a, C(x, y)); };
  double ddx = fz_fd(at, x), ddy = fz_fd(at, y), dda = fz_fd(at, a);
  fz_check("loss fwd", __enzyme_fwddiff_d((void *)loss, enzyme_const, a, z, dz),
           ddx * dz.real() + ddy * dz.imag(), 1e-7);
  fz_check("loss fwd const z", __enzyme_fwddiff_d((void *)loss, a, 1.0, enzyme_const, z), dda, 1e-7);
  C g = __enzyme_autodiff<C>((void *)loss, enzyme_const, a, z);
  fz_check("loss rev d/dRe", g.real(), ddx, 1e-7);
  fz_check("loss rev d/dIm", g.imag(), ddy, 1e-7);
  return fz_finish();
}
