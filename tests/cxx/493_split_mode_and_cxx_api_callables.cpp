// OPT: O0 O1 O2 O3
// probe42: split mode from C++ (`__enzyme_augmentfwd` returning the tape,
// `__enzyme_reverse` later) of a step that builds a std::vector inside, the inputs
// overwritten by the caller between the two; Enzyme's C++ API on a std::function
// capturing by value around a recursive helper (reverse with two Active results,
// forward with Duplicated/Const) and on a captureless lambda (`+loss`). Oracles:
// central differences of the VJP, analytic, forward = reverse.
#include <enzyme/enzyme>
#include <functional>
#include <cmath>
#include <vector>
#include "fz_cxx.h"

// Split mode in C++: augmented forward returns the tape; reverse later (after the primal
// inputs are overwritten by the caller), a std::vector built inside.
extern "C" {
extern int enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
}
void step(const double *x, double *y, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; i++) t[i] = std::sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++) y[i] = t[i] * t[(i + 2) % n] + std::exp(-x[i] * x[i]);
}
static double rec(double x, int k) { return k == 0 ? x : std::sin(rec(x, k - 1)) + 0.1 * x; }
double through_function(double x, double y) {
  std::function<double(double)> g = [y](double t) { return rec(t, 3) * y; };
  return g(x) + g(x * y);
}
int main() {
  const int n = 5;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[n] = {0}, y[n], dy[n] = {0.5, -1, 2, 0.25, 1};
  double x0[n];
  for (int i = 0; i < n; i++) x0[i] = x[i];
  void *tape = __enzyme_augmentfwd((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
  double y0[n];
  for (int i = 0; i < n; i++) y0[i] = y[i];
  step(x0, y0, n);
  for (int i = 0; i < n; i++) fz_check("aug primal", y[i], y0[i], 1e-14);
  for (int i = 0; i < n; i++) x[i] = 100;  // the caller reuses x before the reverse pass
  __enzyme_reverse((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n, tape);
  double dy0[n] = {0.5, -1, 2, 0.25, 1};
  for (int i = 0; i < n; i++) {
    auto L = [&] {
      double yy[n];
      step(x0, yy, n);
      double s = 0;
      for (int k = 0; k < n; k++) s += dy0[k] * yy[k];
      return s;
    };
    fz_check("split vjp", dx[i], fz_fd(L, x0[i]), 1e-6);
  }
  double xa = 0.6, ya = 1.3;
  auto r = enzyme::autodiff<enzyme::Reverse>(through_function, enzyme::Active<double>(xa), enzyme::Active<double>(ya));
  double gx = enzyme::get<0>(enzyme::get<0>(r)), gy = enzyme::get<1>(enzyme::get<0>(r));
  auto F = [&] { return through_function(xa, ya); };
  fz_check("api dx", gx, fz_fd(F, xa), 1e-6);
  fz_check("api dy", gy, fz_fd(F, ya), 1e-6);
  auto t = enzyme::autodiff<enzyme::Forward>(through_function, enzyme::Duplicated<double>(xa, 1.0), enzyme::Const<double>(ya));
  fz_check("api fwd dx", enzyme::get<0>(t), gx, 1e-10);
  std::vector<double> w{0.5, -0.25, 2.0}, dw(3, 0.0);
  auto loss = [](const double *w, double s) {
    double acc = 0;
    for (int i = 0; i < 3; i++) acc += std::exp(w[i] * s);
    return acc;
  };
  auto r2 = enzyme::autodiff<enzyme::Reverse>(+loss, enzyme::Duplicated<const double *>(w.data(), dw.data()), enzyme::Active<double>(0.7));
  for (int i = 0; i < 3; i++) fz_check("lambda dw", dw[i], 0.7 * std::exp(w[i] * 0.7), 1e-12);
  double ds = 0;
  for (int i = 0; i < 3; i++) ds += w[i] * std::exp(w[i] * 0.7);
  fz_check("lambda ds", enzyme::get<0>(enzyme::get<0>(r2)), ds, 1e-12);
  return fz_finish();
}
