// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's C++ interface on functions that return a class by value, as Enzyme's users
// write them (Enzyme's own CppSugar test of `std::vector` results is the model; this
// program is ours): forward mode with enzyme::DuplicatedNoNeed<std::vector<double>> (the
// result's tangent, an std::vector of its own), enzyme::Duplicated<R> (primal and
// tangent), enzyme::Const<R> (the primal), a small struct returned in registers (a 3-vector
// cross product) and a lambda returning a struct; reverse mode of such functions with a
// Const class result (the gradient of what they write through an output argument, the
// result dropped) and ReverseWithPrimal (the result returned, computed once).
// Before usr38 the forward calls stopped at a static_assert ("only a float or double
// result has a tangent") and reverse mode misread the hidden sret parameter as the first
// argument (`argument 2 ... is marked enzyme_out but has type ptr`).
// Oracles: analytic derivatives, central finite differences of the primal, and the
// forward/reverse dot-product identity.
#include <enzyme/enzyme>
#include "fz_cxx.h"
#include <cmath>
#include <vector>

struct V3 {
  double x, y, z;
};

static int primal_calls = 0;

std::vector<double> features(const std::vector<double> &u, double a) {
  primal_calls++;
  std::vector<double> r(u.size() + 1);
  double s = 0;
  for (size_t i = 0; i < u.size(); i++) {
    r[i] = a * std::sin(u[i]) * u[(i + 1) % u.size()];
    s += u[i] * u[i];
  }
  r[u.size()] = std::sqrt(s);
  return r;
}

V3 cross(const V3 &a, const V3 &b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Writes through `out` and returns a class too: the reverse tests differentiate `out`.
std::vector<double> report(const double *x, double *out, int n) {
  std::vector<double> log(n);
  for (int i = 0; i < n; i++) {
    out[i] = std::exp(x[i]) * x[(i + 1) % n];
    log[i] = out[i] * 2;
  }
  return log;
}

int main() {
  fz_seed(467);
  const int n = 4;
  std::vector<double> u(n), du(n);
  for (int i = 0; i < n; i++) {
    u[i] = fz_uniform(-1, 1);
    du[i] = fz_uniform(-1, 1);
  }
  double a = fz_uniform(0.5, 1.5);

  // Forward, tangent only (DuplicatedNoNeed): J(u) du with a constant.
  std::vector<double> t = enzyme::get<0>(
      enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<std::vector<double>>>(
          features, enzyme::Duplicated<const std::vector<double> &>(u, du),
          enzyme::Const<double>(a)));
  fz_check("tangent size", (double)t.size(), n + 1, 0);
  for (int k = 0; k <= n; k++) {
    double h = 1e-6;
    std::vector<double> up(u), um(u);
    for (int i = 0; i < n; i++) {
      up[i] += h * du[i];
      um[i] -= h * du[i];
    }
    double fd = (features(up, a)[k] - features(um, a)[k]) / (2 * h);
    fz_check("fwd tangent vs FD", t[k], fd, 1e-6);
  }
  double s2 = 0, sd = 0;
  for (int i = 0; i < n; i++) s2 += u[i] * u[i], sd += u[i] * du[i];
  fz_check("fwd tangent of the norm", t[n], sd / std::sqrt(s2), 1e-12);

  // Forward, primal and tangent (Duplicated), with the scalar argument active too.
  primal_calls = 0;
  auto pt = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<std::vector<double>>>(
      features, enzyme::Duplicated<const std::vector<double> &>(u, du),
      enzyme::Duplicated<double>(a, 1.0));
  fz_check("fwd primal computed once", primal_calls, 1, 0);
  std::vector<double> y = features(u, a);
  for (int k = 0; k <= n; k++) {
    fz_check("fwd primal", enzyme::get<0>(pt)[k], y[k], 1e-14);
    double extra = k < n ? std::sin(u[k]) * u[(k + 1) % n] : 0;  // d/da
    fz_check("fwd tangent with da", enzyme::get<1>(pt)[k], t[k] + extra, 1e-12);
  }

  // Forward, Const result: the primal only.
  auto c = enzyme::autodiff<enzyme::Forward, enzyme::Const<std::vector<double>>>(
      features, enzyme::Duplicated<const std::vector<double> &>(u, du),
      enzyme::Const<double>(a));
  fz_check("fwd const result", enzyme::get<0>(c)[1], y[1], 1e-14);

  // A struct of three doubles returned in memory; d(a x b) = da x b + a x db.
  V3 p{fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(-1, 1)};
  V3 q{fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(-1, 1)};
  V3 dp{1, 0.5, -0.25}, dq{0, -1, 2};
  V3 dc = enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<V3>>(
      cross, enzyme::Duplicated<const V3 &>(p, dp), enzyme::Duplicated<const V3 &>(q, dq)));
  V3 w1 = cross(dp, q), w2 = cross(p, dq);
  fz_check("cross dx", dc.x, w1.x + w2.x, 1e-12);
  fz_check("cross dy", dc.y, w1.y + w2.y, 1e-12);
  fz_check("cross dz", dc.z, w1.z + w2.z, 1e-12);

  // A lambda returning a small struct (in registers), deduced result activity Const by
  // default, DuplicatedNoNeed explicitly.
  struct Pair {
    double lo, hi;
  };
  auto bounds = [](double x, double r) { return Pair{x - r * r, x + std::exp(r)}; };
  Pair db = enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<Pair>>(
      bounds, enzyme::Duplicated<double>(0.3, 2.0), enzyme::Duplicated<double>(0.7, 1.0)));
  fz_check("lambda pair lo", db.lo, 2.0 - 2 * 0.7, 1e-12);
  fz_check("lambda pair hi", db.hi, 2.0 + std::exp(0.7), 1e-12);
  Pair pb = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
      bounds, enzyme::Duplicated<double>(0.3, 2.0), enzyme::Const<double>(0.7)));
  fz_check("lambda pair primal", pb.hi, 0.3 + std::exp(0.7), 1e-14);

  // Reverse mode, Const class result (the default): the gradient of <w, out>.
  double x[n], gx[n], out[n], wout[n];
  for (int i = 0; i < n; i++) {
    x[i] = fz_uniform(-1, 1);
    wout[i] = fz_uniform(-1, 1);
    gx[i] = 0;
  }
  double dout[n];
  for (int i = 0; i < n; i++) dout[i] = wout[i];
  enzyme::autodiff<enzyme::Reverse>(report, enzyme::Duplicated<const double *>(x, gx),
                                    enzyme::Duplicated<double *>(out, dout),
                                    enzyme::Const<int>(n));
  double want[n];
  for (int i = 0; i < n; i++) want[i] = 0;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    want[i] += wout[i] * std::exp(x[i]) * x[j];
    want[j] += wout[i] * std::exp(x[i]);
  }
  fz_check_arr("reverse gradient, class result dropped", gx, want, n, 1e-12);
  // Dot-product identity: <J v, w> from forward mode against <v, J^T w>.
  double v[n], jv[n], o2[n], lhs = 0, rhs = 0;
  for (int i = 0; i < n; i++) v[i] = fz_uniform(-1, 1);
  enzyme::autodiff<enzyme::Forward>(report, enzyme::Duplicated<const double *>(x, v),
                                    enzyme::Duplicated<double *>(o2, jv),
                                    enzyme::Const<int>(n));
  for (int i = 0; i < n; i++) lhs += jv[i] * wout[i], rhs += v[i] * gx[i];
  fz_check("dot-product identity", lhs, rhs, 1e-12);

  // ReverseWithPrimal: the result comes back, the function ran once.
  for (int i = 0; i < n; i++) gx[i] = 0, dout[i] = wout[i];
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(
      report, enzyme::Duplicated<const double *>(x, gx), enzyme::Duplicated<double *>(out, dout),
      enzyme::Const<int>(n));
  std::vector<double> log = enzyme::get<1>(rp);
  fz_check("with primal: size", (double)log.size(), n, 0);
  for (int i = 0; i < n; i++) fz_check("with primal: value", log[i], 2 * out[i], 1e-14);
  fz_check_arr("with primal: gradient", gx, want, n, 1e-12);

  // Reverse mode with an active scalar next to the class result.
  auto ra = enzyme::autodiff<enzyme::Reverse>(features, enzyme::Const<const std::vector<double> &>(u),
                                              enzyme::Active<double>(a));
  fz_check("active scalar, class result const", enzyme::get<0>(enzyme::get<0>(ra)), 0.0, 0);
  return fz_finish();
}
