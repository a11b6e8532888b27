// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Robust statistics on a `std::vector<double>` as users write them in C++: the median
// by `std::nth_element` on a copy, a trimmed mean after `std::sort`, the top-k sum after
// `std::partial_sort` with `std::greater<>`, the argmax by `std::max_element` with a
// lambda on |x|, `std::minmax_element`; all the sorting is template code the pass sees.
// Oracle: central finite differences (no ties in the data).
#include "fz_cxx.h"
#include <algorithm>
#include <functional>
#include <vector>

double robust(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::vector<double> m = v;
  std::nth_element(m.begin(), m.begin() + n / 2, m.end());
  double med = m[n / 2];
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  double trim = 0.0;
  for (int i = 2; i < n - 2; i++) trim += s[i];
  trim /= (n - 4);
  std::vector<double> t = v;
  std::partial_sort(t.begin(), t.begin() + 3, t.end(), std::greater<>());
  double top = t[0] + 0.5 * t[1] + 0.25 * t[2];
  auto am = std::max_element(v.begin(), v.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  auto mm = std::minmax_element(v.begin(), v.end());
  return med * med + trim * 3.0 + top + (*am) * (*am) * 0.5 + (*mm.second - *mm.first) * 0.1;
}

int main() {
  const int n = 11;
  double x[n], dx[n] = {0}, fd[n];
  fz_seed(113);
  fz_fill(x, n, -4, 4);
  __enzyme_autodiff<void>((void *)robust, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return robust(x, n); }, x, n, fd);
  fz_check_arr("drobust fd", dx, fd, n, 1e-6);
  return fz_finish();
}
