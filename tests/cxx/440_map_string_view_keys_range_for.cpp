// OPT: O0 O2
// CFLAGS: -std=c++17
// A constant `std::map<std::string_view, double, std::less<>>` of named coefficients
// looked up with `find` by `string_view` keys (transparent comparator), and a range-for
// over a `const std::map<int, double> &` passed directly as enzyme_const (at -O0 the
// `begin()`/`end()` iterators come from the map reloaded from its stack home: difftest's
// cxx seeds 3044 and 3074 without OpenMP), next to an active x. Oracle: the analytic
// gradient, central differences, forward/reverse dot products; both maps checked
// unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <string_view>

using Named = std::map<std::string_view, double, std::less<>>;

double score(const double *x, const Named &named, const std::map<int, double> &tab, int n) {
  static constexpr std::string_view keys[] = {"alpha", "beta", "gamma"};
  double s = 0;
  for (int i = 0; i < 3; i++) {
    auto it = named.find(keys[i]);
    if (it != named.end()) s += it->second * x[i] * x[i];
  }
  for (const auto &kv : tab) s += kv.second * std::sin(x[kv.first % n]);
  return s;
}

extern int enzyme_dup, enzyme_const;
#define N 4

int main() {
  Named named{{"alpha", 0.5}, {"beta", -1.25}, {"gamma", 2.0}, {"delta", 9.0}};
  std::map<int, double> tab{{0, 0.3}, {3, -0.8}, {5, 1.1}, {6, 0.45}};
  const Named named0 = named;
  const std::map<int, double> tab0 = tab;
  double x[N] = {0.4, -0.9, 1.3, 0.2}, dx[N] = {0}, fd[N], want[N] = {0};
  __enzyme_autodiff<void>((void *)score, enzyme_dup, x, dx, enzyme_const, &named, enzyme_const,
                          &tab, enzyme_const, N);
  fz_check("constant named map unchanged", named == named0, 1, 0);
  fz_check("constant int map unchanged", tab == tab0, 1, 0);
  const double c[3] = {0.5, -1.25, 2.0};
  for (int i = 0; i < 3; i++) want[i] += 2 * c[i] * x[i];
  for (const auto &kv : tab0) want[kv.first % N] += kv.second * std::cos(x[kv.first % N]);
  fz_check_arr("dx analytic", dx, want, N, 1e-12);
  fz_fd_grad_of([&] { return score(x, named, tab, N); }, x, N, fd);
  fz_check_arr("dx vs finite differences", dx, fd, N, 1e-6);
  double v[N] = {0.6, 0.1, -0.3, 0.8}, dv = 0;
  for (int i = 0; i < N; i++) dv += want[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)score, enzyme_dup, x, v, enzyme_const, &named,
                                       enzyme_const, &tab, enzyme_const, N);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  fz_check("constant int map unchanged (forward)", tab == tab0, 1, 0);
  return fz_finish();
}
