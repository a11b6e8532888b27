// OPT: O0 O2
// CFLAGS: -std=c++17
// Whole-array `std::valarray<double>` arithmetic as numerical users write it: a model
// y = a * sin(w t) + b t^2 evaluated on a valarray of times (scalar-times-array, array
// functions, array-times-array), residuals against data, `cshift` for a first-difference
// roughness penalty, compound assignment (`r *= weights`) and `.sum()`. The parameters
// (a, w, b) are active scalars (enzyme_out); times, data and weights are valarrays in a
// struct passed `enzyme_const` (a global valarray is built by a constructor at startup:
// the documented `__enzyme_inactive_global` error).
// Oracle: the analytic gradient and central finite differences; forward mode along a
// direction against the reverse gradient (dot-product identity).
#include "fz_cxx.h"
#include <cmath>
#include <valarray>

struct Data {
  std::valarray<double> t, y, w;
};

double misfit(double a, double w, double b, const Data *data) {
  const std::valarray<double> &t = data->t;
  std::valarray<double> model = a * std::sin(w * t) + b * t * t;
  std::valarray<double> r = model - data->y;
  std::valarray<double> d = r.cshift(1) - r;  // roughness of the residual (periodic)
  r *= data->w;
  return 0.5 * (r * r).sum() + 0.05 * (d * d).sum();
}

extern int enzyme_out, enzyme_dup, enzyme_const;
struct Grad3 {
  double da, dw, db;
};

int main() {
  const int n = 9;
  Data data{std::valarray<double>(n), std::valarray<double>(n), std::valarray<double>(n)};
  std::valarray<double> &g_t = data.t, &g_y = data.y, &g_w = data.w;
  for (int i = 0; i < n; i++) {
    g_t[i] = 0.25 * i;
    g_y[i] = 0.7 * std::sin(1.3 * g_t[i]) + 0.2 * g_t[i] * g_t[i] + 0.03 * ((i % 3) - 1);
    g_w[i] = 1.0 + 0.1 * i;
  }
  double a = 0.9, w = 1.1, b = 0.15;
  const Data before = data;
  Grad3 g = __enzyme_autodiff<Grad3>((void *)misfit, enzyme_out, a, enzyme_out, w,
                                     enzyme_out, b, enzyme_const, &data);
  for (int i = 0; i < n; i++) {
    fz_check("constant t unchanged", g_t[i], before.t[i], 0);
    fz_check("constant y unchanged", g_y[i], before.y[i], 0);
    fz_check("constant w unchanged", g_w[i], before.w[i], 0);
  }
  // analytic: r_i = (m_i - y_i) w_i, d_i = e_{i+1} - e_i with e = m - y (unweighted)
  double ga = 0, gw = 0, gb = 0;
  double e[n], dm_da[n], dm_dw[n], dm_db[n];
  for (int i = 0; i < n; i++) {
    double t = g_t[i];
    e[i] = a * std::sin(w * t) + b * t * t - g_y[i];
    dm_da[i] = std::sin(w * t);
    dm_dw[i] = a * t * std::cos(w * t);
    dm_db[i] = t * t;
  }
  for (int i = 0; i < n; i++) {
    double c = e[i] * g_w[i] * g_w[i];
    ga += c * dm_da[i];
    gw += c * dm_dw[i];
    gb += c * dm_db[i];
    int j = (i + 1) % n;
    double dd = 0.1 * (e[j] - e[i]);
    ga += dd * (dm_da[j] - dm_da[i]);
    gw += dd * (dm_dw[j] - dm_dw[i]);
    gb += dd * (dm_db[j] - dm_db[i]);
  }
  fz_check("d/da analytic", g.da, ga, 1e-10);
  fz_check("d/dw analytic", g.dw, gw, 1e-10);
  fz_check("d/db analytic", g.db, gb, 1e-10);
  fz_check("d/da finite differences", g.da, fz_fd([&] { return misfit(a, w, b, &data); }, a), 1e-6);
  fz_check("d/dw finite differences", g.dw, fz_fd([&] { return misfit(a, w, b, &data); }, w), 1e-6);
  fz_check("d/db finite differences", g.db, fz_fd([&] { return misfit(a, w, b, &data); }, b), 1e-6);
  // forward mode along v = (0.3, -0.5, 0.8): J v == <grad, v>
  double v[3] = {0.3, -0.5, 0.8};
  double jv = __enzyme_fwddiff<double>((void *)misfit, enzyme_dup, a, v[0], enzyme_dup, w,
                                       v[1], enzyme_dup, b, v[2], enzyme_const, &data);
  fz_check("forward J.v == <grad, v>", jv, g.da * v[0] + g.dw * v[1] + g.db * v[2], 1e-10);
  return fz_finish();
}
