// OPT: O0 O2
// CFLAGS: -std=c++20
// Compile-time tables as users write them: a `constexpr std::array` of Taylor
// coefficients computed by a `constexpr` function (1/k! for exp, the alternating odd
// ones for sin), evaluated by Horner in a `constexpr`-capable template; a `constexpr`
// array of `{std::string_view name, double (*fn)(double)}` activations looked up by name
// with `std::find_if` inside the differentiated function (the call goes through the
// table's function pointer), and a `static constexpr` piecewise-linear table indexed
// by the active value's cell. Oracle: the analytic gradient (the series' derivative is
// the shifted series), central differences, forward/reverse dot products.
#include "fz_cxx.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

template <std::size_t N>
constexpr std::array<double, N> exp_coefficients() {
  std::array<double, N> c{};
  double f = 1;
  for (std::size_t k = 0; k < N; k++) {
    if (k > 0) f *= double(k);
    c[k] = 1.0 / f;
  }
  return c;
}

constexpr auto kExp = exp_coefficients<14>();
static_assert(kExp[3] > 0.1666 && kExp[3] < 0.1667);

template <std::size_t N>
constexpr double horner(const std::array<double, N> &c, double x) {
  double s = 0;
  for (std::size_t k = N; k-- > 0;) s = s * x + c[k];
  return s;
}

static double softplus(double x) { return std::log1p(std::exp(x)); }
static double swish(double x) { return x / (1 + std::exp(-x)); }
static double cube(double x) { return x * x * x; }

struct Activation {
  std::string_view name;
  double (*fn)(double);
};

constexpr std::array<Activation, 3> kActivations{
    {{"softplus", softplus}, {"swish", swish}, {"cube", cube}}};

static double apply(std::string_view name, double x) {
  auto it = std::find_if(kActivations.begin(), kActivations.end(),
                         [&](const Activation &a) { return a.name == name; });
  return it == kActivations.end() ? x : it->fn(x);
}

// values at the nodes 0, 0.5, ..., 3.0
static constexpr double kTable[7] = {0.0, 0.4, 1.1, 1.5, 1.6, 2.4, 3.0};

static double interp(double t) {
  int cell = std::clamp(int(t * 2), 0, 5);
  double u = t * 2 - cell;
  return kTable[cell] * (1 - u) + kTable[cell + 1] * u;
}

double model(const double *x, const int *which, int n) {
  static constexpr std::string_view names[] = {"softplus", "swish", "cube", "identity"};
  double s = 0;
  for (int i = 0; i < n; i++) {
    double e = horner(kExp, x[i]);  // exp(x) to ~1e-11 on |x| < 1
    s += apply(names[which[i]], e - 1.0) + interp(x[i] + 1.2);
  }
  return s;
}

static double dact(int w, double z) {
  switch (w) {
    case 0: return 1 / (1 + std::exp(-z));
    case 1: {
      double sg = 1 / (1 + std::exp(-z));
      return sg + z * sg * (1 - sg);
    }
    case 2: return 3 * z * z;
    default: return 1;
  }
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 8;
  double x[n] = {0.31, -0.55, 0.83, 0.1, -0.9, 0.45, -0.23, 0.65}, dx[n] = {0}, fd[n], want[n];
  int which[n] = {0, 1, 2, 3, 2, 1, 0, 3};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, which,
                          enzyme_const, n);
  // d/dx of the series is the series without its last term; the table's slope is the
  // cell's difference over the node spacing
  std::array<double, 13> dcoef{};
  for (int k = 0; k < 13; k++) dcoef[k] = kExp[k + 1] * (k + 1);
  for (int i = 0; i < n; i++) {
    double e = horner(kExp, x[i]);
    double t = x[i] + 1.2;
    int cell = std::clamp(int(t * 2), 0, 5);
    want[i] = dact(which[i], e - 1.0) * horner(dcoef, x[i]) +
              (kTable[cell + 1] - kTable[cell]) * 2;
  }
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return model(x, which, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6, 0.1, 0.7, -0.4}, dv = 0;
  for (int i = 0; i < n; i++) dv += dx[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, which,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
