// OPT: O0 O2
// A `std::valarray<float>` filled from an active scalar, scaled by a float constant and
// summed (the shape of difftest's `valarray` feature in float programs; C++ seeds 3056 and
// 3086 crashed at -O0, session 19). The closure `_BinClos<__multiplies, _ValArray,
// _Constant, float, float>` is `{ ptr, float }`; its copy's shadow was moved as 12-byte
// records whose second float slot was the pointer's upper half, so the shadow closure's
// pointer lost its upper 32 bits (SIGSEGV). A pointer fact now covers all 8 bytes
// (`reverse/vector.rs::record_slots`). Oracles: the
// analytic derivative and central differences, in float and in double.
#include "fz_cxx.h"
#include <cmath>
#include <valarray>

template <typename R> R scaled_sum(R e, int n) {
  std::valarray<R> va(n);
  for (int q = 0; q < n; q++) va[q] = e * e;
  std::valarray<R> vb = va * (R)0.85 + std::sin(va) * va;
  return vb.sum();
}

extern int enzyme_const;

int main() {
  const int n = 5;
  float ef = 0.7f;
  float df = __enzyme_autodiff<float>((void *)scaled_sum<float>, ef, enzyme_const, n);
  double e = 0.7;
  double dd = __enzyme_autodiff<double>((void *)scaled_sum<double>, e, enzyme_const, n);
  // d/de of n * (0.85 e^2 + sin(e^2) e^2) = n * 2e * (0.85 + sin(e^2) + e^2 cos(e^2)).
  double want = n * 2 * e * (0.85 + std::sin(e * e) + e * e * std::cos(e * e));
  fz_check("double: analytic", dd, want, 1e-12);
  fz_check("float: analytic", df, want, 1e-5);
  double h = 1e-6;
  fz_check("double: finite differences",
           dd, (scaled_sum<double>(e + h, n) - scaled_sum<double>(e - h, n)) / (2 * h), 1e-6);
  return fz_finish();
}
