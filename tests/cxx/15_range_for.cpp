// OPT: O0 O2
// CFLAGS: -std=c++17
// Range-for over a C array, a std::vector (by reference and by value), a std::array, an
// initializer_list and a user container with begin()/end() members; structured
// bindings over an array of pairs. Oracle: finite differences.
#include "fz_cxx.h"
#include <array>
#include <initializer_list>
#include <utility>
#include <vector>

struct Window {
  const double *p;
  int n;
  const double *begin() const { return p; }
  const double *end() const { return p + n; }
};

double walk(const double *x, int n) {
  double s = 0;
  double local[4] = {x[0], x[1], x[2], x[3]};
  for (double v : local) s += v * v;
  std::vector<double> vec(x, x + n);
  for (double &v : vec) v *= 1.5;
  for (const double &v : vec) s += v * x[0];
  std::array<double, 3> arr{x[1], x[2], x[3]};
  for (auto v : arr) s += v * v * v;
  for (double w : {0.5, 1.0, 2.0}) s += w * x[4];
  for (double v : Window{x + 2, n - 2}) s += v / (1.0 + v * v);
  std::pair<double, double> prs[2] = {{x[0], x[1]}, {x[2], x[3]}};
  for (auto [a, b] : prs) s += a * b;
  return s;
}

int main() {
  fz_seed(315);
  const int n = 6;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1, 1);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)walk, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return walk(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
