// OPT: O0 O2
// CFLAGS: -std=c++20
// `std::optional<double>` members of an `enzyme_const` configuration (`value_or`,
// `has_value`, `*opt`), and a `std::vector<std::optional<double>>` of per-entry
// overrides, with an active input. Oracle: the analytic gradient, central differences,
// forward/reverse dot product, and the constant struct unchanged.
#include "fz_cxx.h"
#include <cmath>
#include <optional>
#include <vector>

struct Config {
  std::optional<double> gain;
  std::optional<double> offset;  // left empty
  std::vector<std::optional<double>> w;
};

double model(const double *x, const Config *c, int n) {
  double s = c->gain.value_or(1.0) * x[0] * x[0] + c->offset.value_or(0.25) * x[1];
  for (int i = 0; i < n; i++) {
    const auto &wi = c->w[i];
    s += wi.has_value() ? *wi * std::sin(x[i]) : x[i];
  }
  if (c->gain) s += *c->gain * x[2] * x[3];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Config c{1.5, std::nullopt, {0.5, std::nullopt, -2.0, 0.75}};
  const Config c0 = c;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &c, enzyme_const, n);
  fz_check("enzyme_const struct unchanged",
           c.gain == c0.gain && c.offset == c0.offset && c.w == c0.w ? 1 : 0, 1, 0);
  want[0] += 2 * 1.5 * x[0], want[1] += 0.25;
  for (int i = 0; i < n; i++) want[i] += c0.w[i] ? *c0.w[i] * std::cos(x[i]) : 1.0;
  want[2] += 1.5 * x[3], want[3] += 1.5 * x[2];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &c0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &c,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
