// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE: an exception thrown and caught inside the differentiated function: the derivative follows the normal path only (clone.rs `drop_unwind_paths`, generated functions are nounwind), so at run time the throw ends in std::terminate ("terminate called after throwing an instance of 'std::invalid_argument'") at every level; never a wrong number, but catching is not supported. A compile-time error for any landing pad that catches was tried in sweep18 and dropped: it refuses tests/cxx/102, whose try/catch is never taken on the differentiated path and which passes (the throw cannot be known at compile time)
// Input validation by exceptions inside the differentiated code, as C++ libraries do it:
// a helper throws `std::invalid_argument` for a non-positive scale, the caller catches
// it and falls back to a default; here one of the three calls really throws and is
// caught. Oracle: central finite differences.
#include "fz_cxx.h"
#include <stdexcept>
#include <cmath>

__attribute__((noinline)) double scaled_log(double x, double s) {
  if (s <= 0.0) throw std::invalid_argument("scale must be positive");
  return std::log(x * s);
}

double model(const double *p) {
  double total = 0.0;
  for (int i = 0; i < 3; i++) {
    double v;
    try {
      v = scaled_log(p[i] * p[i] + 1.0, p[3] - i);
    } catch (const std::invalid_argument &) {
      v = p[i] * 0.5;
    }
    total += v * (i + 1);
  }
  return total;
}

int main() {
  double p[4] = {0.7, -1.2, 2.0, 1.5}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return model(p); }, p, 4, fd);
  fz_check_arr("dmodel fd", dp, fd, 4, 1e-6);
  return fz_finish();
}
