// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// Filtering idioms on vectors of active values inside the differentiated function: the
// erase-remove idiom with a lambda (`v.erase(std::remove_if(...), v.end())`), C++20
// `std::erase_if`, `std::copy_if` into a `back_inserter`, `std::reverse`, `std::rotate`,
// `std::unique` after a sort, a `std::vector<bool>` mask built from the values, and
// `std::replace_if`. The selections depend only on the values' signs and sizes, away from
// their thresholds, so they are constant near the inputs. Oracle: central finite
// differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

double filtered(const double *x, int n) {
  std::vector<double> v(x, x + n);
  v.erase(std::remove_if(v.begin(), v.end(), [](double e) { return std::fabs(e) < 0.2; }), v.end());
  std::vector<double> pos;
  std::copy_if(v.begin(), v.end(), std::back_inserter(pos), [](double e) { return e > 0; });
  std::reverse(v.begin(), v.end());
  std::rotate(v.begin(), v.begin() + 2, v.end());
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += v[i] * (i + 1);
  for (double p : pos) s += std::log(p);

  std::vector<double> w(x, x + n);
  for (double &e : w) e = std::round(e * 2.0) / 2.0 + 0.01 * e;  // clusters
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end(), [](double a, double b) { return std::fabs(a - b) < 0.1; }), w.end());
  for (size_t i = 0; i < w.size(); i++) s += w[i] * w[i] * 0.5;

  std::vector<bool> big(n);
  for (int i = 0; i < n; i++) big[i] = x[i] * x[i] > 0.5;
  std::vector<double> u(x, x + n);
  std::replace_if(u.begin(), u.end(), [](double e) { return e < -1.0; }, -1.0);
  std::erase_if(u, [](double e) { return e > 1.2; });
  for (size_t i = 0; i < u.size(); i++) s += (big[i] ? 2.0 : 0.5) * std::sin(u[i]);
  return s;
}

int main() {
  const int n = 10;
  double x[n] = {0.55, -0.05, 1.35, -1.42, 0.93, 0.12, -0.61, 1.74, -0.33, 0.27};
  double dx[n] = {0}, want[n];
  __enzyme_autodiff<void>((void *)filtered, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return filtered(x, n); }, x, n, want);
  fz_check_arr("filtered grad", dx, want, n, 1e-6);
  return fz_finish();
}
