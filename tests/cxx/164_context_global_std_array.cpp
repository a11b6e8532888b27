// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's global-shadow contexts from C++ (sweep19): the model's parameters are global
// `std::array`s (a weight matrix as `std::array<std::array<double, 3>, 2>`, a bias
// array, a scalar temperature in a namespace), read by a small two-layer model through
// range-for loops and `std::inner_product`; `__enzyme_context(1)` / `__enzyme_shadow`
// give their derivative memory, `__enzyme_zero_shadows` clears it. Reverse mode: the
// parameters' adjoints against finite differences of the same global (perturbed in
// place), the input's derivative analytic-vs-FD, and accumulation over two calls; forward
// mode: a tangent seeded in the bias shadow against the reverse (dot-product identity).
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <numeric>

extern "C" void *__enzyme_context(int);
extern "C" void *__enzyme_shadow(void *, void *, int);
extern "C" void __enzyme_zero_shadows(void *);
extern int enzyme_context;

std::array<std::array<double, 3>, 2> W = {{{0.5, -1.0, 0.25}, {1.5, 0.75, -0.5}}};
std::array<double, 2> bias = {0.1, -0.2};
namespace cfg {
double temperature = 1.3;
}

double model(double x) {
  std::array<double, 3> in = {x, x * x, std::sin(x)};
  double s = 0;
  for (const auto &row : W) {
    double z = std::inner_product(row.begin(), row.end(), in.begin(), 0.0) +
               bias[&row - &W[0]];
    s += std::tanh(z / cfg::temperature);
  }
  return s * s;
}

int main() {
  void *ctx = __enzyme_context(1);
  auto *dW = (std::array<std::array<double, 3>, 2> *)__enzyme_shadow(ctx, &W, 0);
  auto *db = (std::array<double, 2> *)__enzyme_shadow(ctx, &bias, 0);
  auto *dT = (double *)__enzyme_shadow(ctx, &cfg::temperature, 0);
  double x = 0.7;
  __enzyme_zero_shadows(ctx);
  double dx = __enzyme_autodiff<double>((void *)model, enzyme_context, ctx, x);
  auto f = [&]() { return model(x); };
  fz_check("d/dx vs FD", dx, fz_fd(f, x), 1e-6);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++) fz_check("d/dW[r][c] vs FD", (*dW)[r][c], fz_fd(f, W[r][c]), 1e-6);
  for (int r = 0; r < 2; r++) fz_check("d/dbias vs FD", (*db)[r], fz_fd(f, bias[r]), 1e-6);
  fz_check("d/dtemperature vs FD", *dT, fz_fd(f, cfg::temperature), 1e-6);

  // Without zeroing, a second call accumulates: twice the first adjoints.
  double b0 = (*db)[0], t0 = *dT;
  __enzyme_autodiff<double>((void *)model, enzyme_context, ctx, x);
  fz_check("accumulated d/dbias[0]", (*db)[0], 2 * b0, 1e-14);
  fz_check("accumulated d/dtemperature", *dT, 2 * t0, 1e-14);

  // Forward: seed the bias tangent (1, -2), zero elsewhere; d model = <g_bias, seed>.
  __enzyme_zero_shadows(ctx);
  (*db)[0] = 1.0;
  (*db)[1] = -2.0;
  double t = __enzyme_fwddiff<double>((void *)model, enzyme_context, ctx, x, 0.0);
  double gb1;
  {
    __enzyme_zero_shadows(ctx);
    __enzyme_autodiff<double>((void *)model, enzyme_context, ctx, x);
    gb1 = (*db)[1];
  }
  fz_check("forward along the bias seed vs reverse", t, b0 - 2 * gb1, 1e-12);
  return fz_finish();
}
