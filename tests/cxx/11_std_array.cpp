// OPT: O0 O2
// CFLAGS: -std=c++17
// std::array: passed by const reference, by value, returned by value (small and large,
// the latter through a hidden return slot), iterated with range-for and std::array
// member functions (size, front, back, operator[]). Oracle: finite differences.
#include "fz_cxx.h"
#include <array>
#include <cmath>

using A3 = std::array<double, 3>;
using A8 = std::array<double, 8>;

A3 rotate(A3 v, double th) {
  return {std::cos(th) * v[0] - std::sin(th) * v[1], std::sin(th) * v[0] + std::cos(th) * v[1], v[2]};
}

A8 expand(const A3 &v) {
  A8 out{};
  for (size_t i = 0; i < out.size(); i++) out[i] = v[i % 3] * (1.0 + 0.1 * i);
  return out;
}

double objective(const double *p) {
  A3 v{p[0], p[1], p[2]};
  A3 r = rotate(v, p[3]);
  A8 e = expand(r);
  double s = e.front() * e.back();
  for (double x : e) s += x * x;
  return s;
}

int main() {
  fz_seed(311);
  double p[4], dp[4], fd[4];
  fz_fill(p, 4, -1, 1);
  fz_zero(dp, 4);
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return objective(p); }, p, 4, fd);
  fz_check_arr("dp", dp, fd, 4, 1e-6);
  return fz_finish();
}
