// OPT: O0 O2
// CFLAGS: -std=c++17
// Variadic templates as users write them for small fixed-size models: a polynomial whose
// coefficients are a parameter pack folded by Horner's rule (a right fold over a lambda
// that is applied pack element by element), a weighted sum `(... + (w[I] * f(x[I])))`
// over `std::index_sequence`, a product fold `(... * (1 + x[I]))`, and `std::min`/max of
// an initializer list built from a pack expansion. Oracle: analytic partials for every
// input, central differences, and forward/reverse dot products.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <utility>

template <typename... C>
double horner(double t, C... c) {
  double acc = 0;
  // (c0 + t (c1 + t (c2 + ...))) evaluated from the highest coefficient down
  double coeffs[] = {double(c)...};
  for (int i = int(sizeof...(C)) - 1; i >= 0; i--) acc = acc * t + coeffs[i];
  return acc;
}

template <std::size_t... I>
double weighted(const double *x, const double *w, std::index_sequence<I...>) {
  return (... + (w[I] * std::sin(x[I])));
}

template <std::size_t... I>
double product(const double *x, std::index_sequence<I...>) {
  return (... * (1 + 0.5 * x[I]));
}

template <std::size_t... I>
double spread(const double *x, std::index_sequence<I...>) {
  return std::max({x[I]...}) - std::min({x[I]...});
}

double model(const double *x, const double *w) {
  constexpr auto idx = std::make_index_sequence<4>{};
  double h = horner(x[0], x[1], x[2], 0.5, x[3]);  // x1 + x2 t + 0.5 t^2 + x3 t^3
  return h + weighted(x, w, idx) + product(x, idx) + spread(x, idx);
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[4] = {0.4, -0.3, 1.1, 0.8}, dx[4] = {0}, fd[4];
  double w[4] = {1.5, -0.5, 2.0, 0.25};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, w);
  fz_fd_grad_of([&] { return model(x, w); }, x, 4, fd);
  fz_check_arr("d/dx finite differences", dx, fd, 4, 1e-6);
  double t = x[0], want[4];
  double prod = 1;
  for (double v : x) prod *= 1 + 0.5 * v;
  for (int i = 0; i < 4; i++) want[i] = w[i] * std::cos(x[i]) + 0.5 * prod / (1 + 0.5 * x[i]);
  want[0] += x[2] + 2 * 0.5 * t + 3 * x[3] * t * t;
  want[1] += 1;
  want[2] += t + 1;   // x2 is the largest
  want[3] += t * t * t;
  want[1] -= 1;       // x1 is the smallest
  fz_check_arr("d/dx analytic", dx, want, 4, 1e-12);
  double v[4] = {0.2, 0.7, -0.4, 0.3}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, w);
  for (int i = 0; i < 4; i++) dv += dx[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
