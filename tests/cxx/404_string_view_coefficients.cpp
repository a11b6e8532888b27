// OPT: O0 O2
// CFLAGS: -std=c++17
// Coefficients parsed from text with `std::string_view` and `std::from_chars` (no locale,
// libstdc++'s out-of-line double parser), as users load a model description: a
// comma-separated polynomial "1.5, -2, 0.25, 3e-1" evaluated by Horner at the active x, and
// "name=value" pairs split at '=' whose values scale active parameters
// (`remove_prefix`, `find`, `substr`). The parsing is constant; only x and p carry
// derivatives, and the parsed doubles multiply them.
// Oracle: the analytic gradient from the known coefficients, central differences,
// forward/reverse dot products.
#include "fz_cxx.h"
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

static std::vector<double> parse_list(std::string_view s) {
  std::vector<double> out;
  while (!s.empty()) {
    while (!s.empty() && (s.front() == ' ' || s.front() == ',')) s.remove_prefix(1);
    if (s.empty()) break;
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc()) break;
    out.push_back(v);
    s.remove_prefix(ptr - s.data());
  }
  return out;
}

static double lookup(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    std::size_t end = text.find(';');
    std::string_view item = text.substr(0, end);
    std::size_t eq = item.find('=');
    if (eq != std::string_view::npos && item.substr(0, eq) == key) {
      double v = 0;
      std::string_view num = item.substr(eq + 1);
      std::from_chars(num.data(), num.data() + num.size(), v);
      return v;
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return 0;
}

double model(const double *p, const char *poly, const char *params) {
  std::vector<double> c = parse_list(poly);
  double x = p[0], y = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) y = y * x + *it;  // c[0] + c[1] x + ...
  double a = lookup(params, "alpha"), b = lookup(params, "beta");
  return y + a * p[1] * p[1] + std::sin(b * p[2]);
}

extern int enzyme_dup, enzyme_const;

int main() {
  const char *poly = "1.5, -2, 0.25,3e-1";
  const char *params = "gamma=7;beta=0.5;alpha=-1.25";
  const int n = 3;
  double p[n] = {0.8, 0.6, -1.1}, dp[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp, enzyme_const, poly, enzyme_const,
                          params);
  double x = p[0];
  double want[n] = {-2 + 2 * 0.25 * x + 3 * 0.3 * x * x, 2 * -1.25 * p[1],
                    0.5 * std::cos(0.5 * p[2])};
  fz_check_arr("d/dp analytic (coefficients as written)", dp, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(p, poly, params); }, p, n, fd);
  fz_check_arr("d/dp finite differences", dp, fd, n, 1e-6);
  double v[n] = {0.3, -0.7, 0.5}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v, enzyme_const, poly,
                                       enzyme_const, params);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
