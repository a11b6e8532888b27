// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's C++ interface, forward mode: a scalar with its tangent
// (enzyme::Duplicated<double>{x, dx}), the default result (DuplicatedNoNeed: the tangent),
// a Duplicated result (the primal and the tangent), a Const result (the primal, for a
// function returning an int), pointer arguments whose shadows hold input tangents and
// receive output tangents, a void function, and a callable object. Oracles: analytic
// and finite differences along the direction.
#include <enzyme/enzyme>
#include "fz_cxx.h"
#include <cmath>

double g(double x, double y) { return std::exp(x) * y + y * y; }
int normalize(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  s = std::sqrt(s);
  for (int i = 0; i < n; i++) v[i] /= s;
  return n;
}
void scale_into(const double *in, double *out, double k, int n) {
  for (int i = 0; i < n; i++) out[i] = k * in[i] * in[i];
}
struct Spring {
  double k;
  double operator()(double x) const { return 0.5 * k * x * x; }
};

int main() {
  fz_seed(319);
  double x = fz_uniform(-1, 1), y = fz_uniform(0.5, 1.5), tx = 0.3, ty = -0.8;
  auto t = enzyme::autodiff<enzyme::Forward>(g, enzyme::Duplicated<double>{x, tx},
                                             enzyme::Duplicated<double>{y, ty});
  double want = std::exp(x) * y * tx + (std::exp(x) + 2 * y) * ty;
  fz_check("tangent", enzyme::get<0>(t), want, 1e-12);

  enzyme::tuple<double, double> pt = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      g, enzyme::Duplicated<double>{x, tx}, enzyme::Const{y});
  fz_check("primal", enzyme::get<0>(pt), g(x, y), 1e-14);
  fz_check("tangent (y const)", enzyme::get<1>(pt), std::exp(x) * y * tx, 1e-12);

  const int n = 4;
  double v[n], dv[n], v0[n];
  fz_fill(v, n, -1, 1);
  fz_fill(dv, n, -1, 1);
  for (int i = 0; i < n; i++) v0[i] = v[i];
  double dir[n];
  for (int i = 0; i < n; i++) dir[i] = dv[i];
  auto ri = enzyme::autodiff<enzyme::Forward>(normalize, enzyme::Duplicated<double *>{v, dv}, enzyme::Const{n});
  fz_check("int result (primal)", enzyme::get<0>(ri), n, 0);
  // v was normalized in place; dv holds the tangent of the normalized vector.
  for (int i = 0; i < n; i++) {
    double w[n];
    auto comp = [&] {
      for (int j = 0; j < n; j++) w[j] = v0[j];
      normalize(w, n);
      return w[i];
    };
    fz_check("normalize tangent", dv[i], fz_fd_dir_of(comp, v0, dir, n), 1e-6);
  }

  double in[3] = {0.5, -1.0, 2.0}, tin[3] = {1.0, 0.0, -1.0}, out[3], tout[3];
  auto rv = enzyme::autodiff<enzyme::Forward>(scale_into, enzyme::Duplicated<const double *>{in, tin},
                                              enzyme::Duplicated<double *>{out, tout},
                                              enzyme::Duplicated<double>{1.5, 0.5}, enzyme::Const{3});
  static_assert(enzyme::tuple_size_v<decltype(rv)> == 0, "void function: empty result");
  for (int i = 0; i < 3; i++)
    fz_check("void fwd", tout[i], 0.5 * in[i] * in[i] + 1.5 * 2 * in[i] * tin[i], 1e-12);

  Spring s{2.5};
  auto rs = enzyme::autodiff<enzyme::Forward>(s, enzyme::Duplicated<double>{0.8, 1.0});
  fz_check("functor", enzyme::get<0>(rs), 2.5 * 0.8, 1e-12);
  return fz_finish();
}
