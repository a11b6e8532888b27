// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Vector forward mode over a C++ method (sweep20): a `Spline` class's const method
// `energy(const double *knots)` is reached through a static wrapper template
// (`call_method<&Spline::energy>`), differentiated with `enzyme_width, 4` and
// `enzyme_dupv, stride, knots, tangents` (four lanes, one tangent block each), and the
// same with a `std::vector<double>` of tangents; the method formats a log line with
// `std::to_string` and `snprintf` into a `std::string` (the text is inactive).
// Oracles: each lane against a scalar forward call, the reverse gradient (dot-product
// identity) and finite differences along the lane's direction.
#include "fz_cxx.h"
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

struct V4 {
  double d[4];
};
extern "C" V4 __enzyme_fwddiff_v4(void *, ...);
extern int enzyme_width, enzyme_dupv;

static std::string last_log;

struct Spline {
  int n;
  double stiffness;
  // Bending energy of a closed polyline of n knots (x_i, y_i), interleaved.
  double energy(const double *k) const {
    double e = 0;
    for (int i = 0; i < n; i++) {
      int a = (i + n - 1) % n, b = (i + 1) % n;
      double bx = k[2 * a] - 2 * k[2 * i] + k[2 * b];
      double by = k[2 * a + 1] - 2 * k[2 * i + 1] + k[2 * b + 1];
      e += stiffness * (bx * bx + by * by) + 0.1 * std::log(1 + k[2 * i] * k[2 * i]);
    }
    std::string msg = "n=" + std::to_string(n) + " energy=";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", e);
    msg += buf;
    last_log = msg;
    return e;
  }
};

template <double (Spline::*M)(const double *) const>
double call_method(const Spline *s, const double *k) {
  return (s->*M)(k);
}

int main() {
  Spline s{6, 0.7};
  const int m = 12;
  double k[m], g[m] = {0};
  fz_seed(179);
  fz_fill(k, m, -1, 1);
  void *fn = (void *)call_method<&Spline::energy>;
  __enzyme_autodiff<void>(fn, enzyme_const, &s, enzyme_dup, k, g);
  fz_check("the log line was written", last_log.rfind("n=6 energy=", 0) == 0, 1, 0);

  double t[4 * m];
  fz_fill(t, 4 * m, -1, 1);
  V4 r = __enzyme_fwddiff_v4(fn, enzyme_width, 4, enzyme_const, &s, enzyme_dupv,
                             (int)(m * sizeof(double)), k, t);
  std::vector<double> tv(t, t + 4 * m);
  V4 rv = __enzyme_fwddiff_v4(fn, enzyme_width, 4, enzyme_const, &s, enzyme_dupv,
                              (int)(m * sizeof(double)), k, tv.data());
  for (int l = 0; l < 4; l++) {
    double sc = __enzyme_fwddiff<double>(fn, enzyme_const, &s, enzyme_dup, k, t + l * m);
    fz_check("lane vs scalar forward", r.d[l], sc, 1e-13);
    fz_check("lane through std::vector tangents", rv.d[l], r.d[l], 0);
    double dot = 0;
    for (int i = 0; i < m; i++) dot += t[l * m + i] * g[i];
    fz_check("lane = <t_l, gradient>", r.d[l], dot, 1e-12);
    auto f = [&]() { return s.energy(k); };
    fz_check("lane vs FD", r.d[l], fz_fd_dir_of(f, k, t + l * m, m), 1e-6);
  }
  return fz_finish();
}
