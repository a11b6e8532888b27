// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A std::function held in a struct, std::unique_ptr<double[]>, vector insert/erase,
// std::sort with a descending lambda comparator on active values, std::to_string on
// inactive data, std::max of an initializer list, std::clamp, C++17's 3-argument
// std::hypot. Oracle: central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>
struct Model { std::function<double(double)> act; double scale; };
double f(const double *x, int n) {
  Model m{[](double v) { return std::tanh(v); }, 1.5};
  std::unique_ptr<double[]> buf(new double[n]);
  for (int i = 0; i < n; i++) buf[i] = m.act(x[i]) * m.scale;
  std::vector<double> v(buf.get(), buf.get() + n);
  v.insert(v.begin() + 1, x[0] * x[1]);
  v.erase(v.begin() + 3);
  std::sort(v.begin(), v.end(), [](double a, double b) { return a > b; });
  std::string tag = "n=" + std::to_string(n);
  double s = std::max({v[0], v[1], 0.1}) + std::clamp(v[2], -0.5, 0.5) + std::hypot(x[0], x[1], x[2]);
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s + (double)tag.size();
}
int main() {
  const int n = 4;
  double x[n] = {0.3, -0.8, 1.2, 0.45}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  auto fl = [&] { return f(x, n); };
  for (int i = 0; i < n; i++) fz_check("dx", dx[i], fz_fd(fl, x[i]), 1e-6);
  return fz_finish();
}
