// OPT: O0 O2
// CFLAGS: -std=c++17
// Namespaces (nested, anonymous, inline functions in headers-style), a constexpr
// table, a function-local static table initialized on first use (a guard variable at
// -O0), and a mutable namespace-scope global read and written by the differentiated
// code. At -O0 the static's initialization is an `invoke` whose function's clone once
// lost its personality function, and LLVM's SimplifyCFG crashed the compiler on it
// (regression). Oracle: finite differences (the global is restored between
// evaluations).
#include "fz_cxx.h"
#include <cmath>

namespace phys {
namespace detail {
constexpr double kWeights[4] = {0.1, 0.2, 0.3, 0.4};
}
namespace {
double gain = 1.5;  // mutable global
}
inline double weight(int i) { return detail::kWeights[i & 3]; }
const double *table() {
  static double t[8] = {0};
  static bool init = [] {
    for (int i = 0; i < 8; i++) t[i] = std::sqrt(1.0 + i);
    return true;
  }();
  (void)init;
  return t;
}
double response(const double *x, int n) {
  double s = 0;
  const double *t = table();
  for (int i = 0; i < n; i++) s += weight(i) * t[i] * std::sin(gain * x[i]);
  gain *= 1.0;  // written back: the global stays shadowed
  return s;
}
}  // namespace phys

int main() {
  fz_seed(323);
  const int n = 6;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1, 1);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)phys::response, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return phys::response(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
