// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's C++ interface, reverse mode (<enzyme/enzyme>, found by `ferrozyme c++`
// without flags): Active scalars (double and float, deduced and explicit), Duplicated
// pointers and references (the shadow receives the gradient), DuplicatedNoNeed, Const
// values and Const references to a parameter struct, the explicit result activity
// (Active<double>, and Const<double>: no seed, only the gradient of what the function
// writes), the result read with enzyme::get and with structured bindings, and the
// C-style `__enzyme_autodiff<T>` the header also declares. Oracles: analytic.
#include <enzyme/enzyme>
#include "fz_cxx.h"
#include <cmath>

struct Params {
  double a, b;
  int n;
};

struct pair {
  double a, b;
};

double f1(double x) { return x * x * x; }
float f1f(float x) { return 3.0f * x * x; }
double f2(double x, double y) { return x * std::sin(y) + y; }
double sumsq(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return s;
}
double with_params(const Params &p, double x, const double &y) { return p.a * x * x + p.b * y * x + p.n; }
double writes(double *out, const double *in, double k) {
  out[0] = k * in[0] * in[1];
  out[1] = in[0] + k;
  return k * k;
}

int main() {
  fz_seed(318);
  double x = fz_uniform(0.5, 1.5), y = fz_uniform(-1, 1);

  auto r1 = enzyme::autodiff<enzyme::Reverse>(f1, enzyme::Active{x});
  fz_check("f1", enzyme::get<0>(enzyme::get<0>(r1)), 3 * x * x, 1e-12);

  enzyme::tuple<enzyme::tuple<double>> r1b =
      enzyme::autodiff<enzyme::Reverse, enzyme::Active<double>>(f1, enzyme::Active<double>(x));
  fz_check("f1 explicit", enzyme::get<0>(enzyme::get<0>(r1b)), 3 * x * x, 1e-12);

  auto r1f = enzyme::autodiff<enzyme::Reverse>(f1f, enzyme::Active<float>(0.5f));
  fz_check("f1f", enzyme::get<0>(enzyme::get<0>(r1f)), 3.0, 1e-6);

  auto [dx, dy] = enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(f2, enzyme::Active{x}, enzyme::Active{y}));
  fz_check("f2 dx", dx, std::sin(y), 1e-12);
  fz_check("f2 dy", dy, x * std::cos(y) + 1, 1e-12);

  double v[4], dv[4] = {0, 0, 0, 0}, dv2[4] = {0, 0, 0, 0};
  fz_fill(v, 4, -1, 1);
  enzyme::autodiff<enzyme::Reverse>(sumsq, enzyme::Duplicated<const double *>{v, dv}, enzyme::Const{4});
  enzyme::autodiff<enzyme::Reverse>(sumsq, enzyme::DuplicatedNoNeed<const double *>{v, dv2}, enzyme::Const<int>{4});
  for (int i = 0; i < 4; i++) {
    fz_check("sumsq dup", dv[i], 2 * v[i], 1e-12);
    fz_check("sumsq dupnoneed", dv2[i], 2 * v[i], 1e-12);
  }

  Params p{1.5, -0.5, 3};
  double yy = y, dyy = 0;
  auto rp = enzyme::autodiff<enzyme::Reverse>(with_params, enzyme::Const<const Params &>{p},
                                              enzyme::Active{x},
                                              enzyme::Duplicated<const double &>{yy, dyy});
  fz_check("params dx", enzyme::get<0>(enzyme::get<0>(rp)), 2 * p.a * x + p.b * yy, 1e-12);
  fz_check("params dy", dyy, p.b * x, 1e-12);

  // Const result: no seed on the result; only the seeded outputs contribute.
  double out[2], dout[2] = {1.0, 2.0}, in[2] = {x, y}, din[2] = {0, 0};
  double k = 0.7;
  auto rc = enzyme::autodiff<enzyme::Reverse, enzyme::Const<double>>(
      writes, enzyme::Duplicated<double *>{out, dout}, enzyme::Duplicated<const double *>{in, din},
      enzyme::Active{k});
  // d/dk of 1*out0 + 2*out1 = in0*in1 + 2; no 2k from the (Const) result.
  fz_check("const ret dk", enzyme::get<0>(enzyme::get<0>(rc)), x * y + 2, 1e-12);
  fz_check("const ret din0", din[0], k * y + 2, 1e-12);
  fz_check("const ret din1", din[1], k * x, 1e-12);

  // The C-style entry point with an explicit result type, as Enzyme's own tests use it.
  auto [za, zb] = __enzyme_autodiff<pair>((void *)f2, enzyme_out, x, enzyme_out, y);
  fz_check("C-style dx", za, std::sin(y), 1e-12);
  fz_check("C-style dy", zb, x * std::cos(y) + 1, 1e-12);
  return fz_finish();
}
