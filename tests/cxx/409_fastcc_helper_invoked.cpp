// OPT: O0 O2
// CFLAGS: -std=c++17
// A regression test: a helper the optimizer gives the `fastcc` calling convention (a
// `static` function not inlined, its address never taken) called with `invoke` from the
// differentiated function (it may throw, and a local `std::vector` must be destroyed if it
// does). The derivative follows the normal path only, turning each `invoke` into a call;
// that call lost the callee's calling convention, a mismatch LLVM treats as undefined
// behaviour and folds to `unreachable`: at -O2 the gradient crashed (SIGSEGV) or ran off
// the end of the function (`unmerge::invokes_to_calls`, fixed in cxx34). The helper parses
// constants from text with `strtod` (no derivative).
// Oracle: the analytic gradient, central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

__attribute__((noinline)) static double lookup(const char *text, const char *key) {
  if (!text) throw std::invalid_argument("no parameters");
  std::size_t n = std::strlen(key);
  for (const char *s = text; *s; s++)
    if (std::strncmp(s, key, n) == 0 && s[n] == '=') return std::strtod(s + n + 1, nullptr);
  return 0;
}

double model(const double *p, const char *params, int n) {
  std::vector<double> v(p, p + n);
  double a = lookup(params, "alpha"), b = lookup(params, "beta");
  double s = 0;
  for (double x : v) s += a * x * x + b * x;
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 3;
  const char *params = "beta=0.5;alpha=-1.25";
  double p[n] = {0.8, -0.6, 1.1}, dp[n] = {0}, fd[n], want[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, params, enzyme_const, n);
  for (int i = 0; i < n; i++) want[i] = 2 * -1.25 * p[i] + 0.5;
  fz_check_arr("d/dp analytic", dp, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(p, params, n); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  double v[n] = {0.4, -0.3, 0.9}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, params,
                                       enzyme_const, n);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
