// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// <numeric>/<algorithm> on active data, in one template instantiated for float and for
// double: std::inner_product, std::transform with a lambda, std::accumulate with a lambda
// capturing a local by reference, std::partial_sum, std::adjacent_difference,
// std::max_element (an inactive index choosing an active value), std::for_each mutating
// a copy, std::transform_reduce. Oracle: finite differences (double), and the float
// instantiation against the double one.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

template <typename T>
T energy(const T *x, int n) {
  std::vector<T> v(x, x + n), w(n), p(n), d(n);
  std::transform(v.begin(), v.end(), w.begin(), [](T t) { return t * t + T(0.5) * t; });
  T ip = std::inner_product(v.begin(), v.end(), w.begin(), T(0));
  T scale = T(1.5);
  T acc = std::accumulate(v.begin(), v.end(), T(0), [&scale](T a, T b) { return a + scale * std::sin(b); });
  std::partial_sum(v.begin(), v.end(), p.begin());
  std::adjacent_difference(w.begin(), w.end(), d.begin());
  auto mx = std::max_element(v.begin(), v.end());
  std::for_each(p.begin(), p.end(), [](T &t) { t = std::exp(T(0.1) * t); });
  T tr = std::transform_reduce(p.begin(), p.end(), d.begin(), T(0));
  return ip + acc + tr + T(2) * (*mx) * (*mx);
}

template float energy<float>(const float *, int);
template double energy<double>(const double *, int);

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4, 0.75}, dx[n] = {0};
  float xf[n], dxf[n] = {0};
  for (int i = 0; i < n; i++) xf[i] = (float)x[i];
  __enzyme_autodiff<void>((void *)energy<double>, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff<void>((void *)energy<float>, enzyme_dup, xf, dxf, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return energy<double>(x, n); };
    fz_check("double dx", dx[i], fz_fd(f, x[i]), 1e-6);
    fz_check("float dx vs double", dxf[i], dx[i], 1e-4 * (1 + std::fabs(dx[i])));
  }
  return fz_finish();
}
