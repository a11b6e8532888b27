// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Vocabulary types in the differentiated function: a Newton solve returning
// `std::optional<double>` (engaged, then `value_or` on a disengaged one), an
// `std::optional<Point>` reset and re-emplaced, and `std::string_view` keys (compared with `==`,
// `starts_with`-style `substr`, `find`) choosing which active parameter a term uses.
// Oracle: the analytic root's derivative and central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <optional>
#include <string_view>

extern int enzyme_dup, enzyme_const, enzyme_out;

// x^3 + a x - b = 0 for a > 0 has one root.
static std::optional<double> cubic_root(double a, double b, int iters) {
  if (a <= 0) return std::nullopt;
  double x = b / (a + 1.0);
  for (int k = 0; k < iters; k++) x -= (x * x * x + a * x - b) / (3 * x * x + a);
  if (std::fabs(x * x * x + a * x - b) > 1e-9) return std::nullopt;
  return x;
}

struct Point {
  double x, y;
};

static const std::string_view names[] = {"alpha", "beta", "alpha2", "gamma"};

double vocab(const double *p) {
  double acc = 0;
  std::optional<double> r = cubic_root(p[0], p[1], 40);
  acc += r.value_or(0.0);
  acc += cubic_root(-p[0], p[1], 40).value_or(2.0 * p[2]);

  std::optional<Point> pt;
  pt.emplace(Point{p[1], p[2]});
  acc += pt->x * pt->y;
  pt.reset();
  pt = Point{p[2] * p[2], p[0]};
  if (pt) acc += std::sqrt(pt->x + pt->y * pt->y);

  for (std::string_view nm : names) {
    if (nm == "beta") acc += std::sin(p[1]);
    else if (nm.substr(0, 5) == "alpha") acc += p[0] * (nm.size() == 5 ? 1.0 : 0.5);
    else if (nm.find('m') != std::string_view::npos) acc += std::exp(0.2 * p[2]);
  }
  return acc;
}

int main() {
  double p[3] = {1.3, 0.7, -0.4}, dp[3] = {0}, want[3];
  __enzyme_autodiff<void>((void *)vocab, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return vocab(p); }, p, 3, want);
  fz_check_arr("vocab grad", dp, want, 3, 1e-6);
  // Analytic part: the root x(a, b) of x^3 + a x - b: dx/da = -x / (3x^2 + a), dx/db = 1 / (3x^2 + a).
  double a = 1.3, b = 0.7, x = *cubic_root(a, b, 40), den = 3 * x * x + a;
  {
    double q[3] = {a, b, -0.4}, dq[3] = {0};
    __enzyme_autodiff<void>((void *)vocab, enzyme_dup, q, dq);
    // d/db of the other terms: sin(b), and pt->x * pt->y = b * p2
    fz_check("root d/db", dq[1] - std::cos(b) - (-0.4), 1.0 / den, 1e-10);
  }
  return fz_finish();
}
