// OPT: O0 O1 O2 O3
// CFLAGS: -g
// probe42: exceptions on paths not taken: a helper that throws for a non-positive
// argument called inside try/catch in the loop, a noexcept helper, a throw guarded by
// isnan, the gradient call itself inside try/catch, and noexcept functions calling
// `std::map::at`/`std::vector::at` (debug info on). Oracles: central differences,
// analytic, forward = reverse. (A throw that is taken ends in std::terminate: cxx/114.)
#include <cmath>
#include <stdexcept>
#include <map>
#include <vector>
#include "fz_cxx.h"

// A throw on a path not taken, a try/catch inside the differentiated function whose
// handler is never entered, a noexcept helper, and a try/catch around the call.
static double checked_log(double x) {
  if (x <= 0) throw std::domain_error("log of non-positive");
  return std::log(x);
}
static double sq(double x) noexcept { return x * x; }

double loss(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    try {
      s += sq(checked_log(x[i] * x[i] + 1.0)) * std::sin(x[i]);
    } catch (const std::exception &e) {
      s += 0.0;
    }
  }
  return s;
}

double guarded(const double *x, int n) {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (double &e : v) {
    if (std::isnan(e)) throw std::runtime_error("nan input");
    s += std::exp(0.3 * e) * e;
  }
  return s;
}

struct Table {
  std::map<int, double> scale{{0, 1.5}, {1, -0.5}, {2, 2.0}};
  double get(int k) const noexcept { return scale.at(k); }
};
double table_loss(const double *x, const Table *t, int n) noexcept {
  std::vector<double> v(x, x + n);
  double s = 0;
  for (int i = 0; i < n; i++) s += t->get(i % 3) * std::sinh(v.at(i)) * v.at((i + 1) % n);
  return s;
}
int main() {
  const int n = 5;
  double x[n] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[n] = {0};
  try {
    __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_const, n);
  } catch (...) {
    fz_check("no exception", 1, 0, 0);
  }
  auto L = [&] { return loss(x, n); };
  for (int i = 0; i < n; i++) fz_check("try/catch loss", dx[i], fz_fd(L, x[i]), 1e-6);
  double gx[n] = {0};
  __enzyme_autodiff<void>((void *)guarded, enzyme_dup, x, gx, enzyme_const, n);
  for (int i = 0; i < n; i++)
    fz_check("guarded", gx[i], std::exp(0.3 * x[i]) * (1 + 0.3 * x[i]), 1e-10);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, x, e, enzyme_const, n);
    fz_check("fwd loss", t, dx[i], 1e-10);
  }
  Table t;
  double tx[n] = {0}, ty[n] = {0};
  __enzyme_autodiff<void>((void *)table_loss, enzyme_dup, x, tx, enzyme_const, &t, enzyme_const, n);
  auto T = [&] { return table_loss(x, &t, n); };
  for (int i = 0; i < n; i++) fz_check("noexcept at()", tx[i], fz_fd(T, x[i]), 1e-6);
  for (int i = 0; i < n; i++) {
    double e[n] = {0};
    e[i] = 1;
    ty[i] = __enzyme_fwddiff<double>((void *)table_loss, enzyme_dup, x, e, enzyme_const, &t, enzyme_const, n);
    fz_check("fwd noexcept at()", ty[i], tx[i], 1e-10);
  }
  return fz_finish();
}
