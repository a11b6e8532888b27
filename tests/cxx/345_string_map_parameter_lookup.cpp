// OPT: O0 O2
// CFLAGS: -std=c++17
// A model whose parameters are looked up by name: a `std::map<std::string, double>` of
// the differentiated parameters is built inside the function from the active array
// (`emplace`, `operator[]` with string literals, `at`, `find`, iteration in key
// order; the names come from a `const char *const` table: the same table without the
// second `const`, a mutable global, is cxx/354), and a constant `std::map<std::string, int>` passed by reference from the
// caller gives each named term's exponent. Oracle: the analytic gradient and central
// differences.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <string>

static const char *const NAMES[4] = {"alpha", "beta", "gamma", "delta"};

double named_model(const double *p, const std::map<std::string, int> &power) {
  std::map<std::string, double> par;
  for (int i = 0; i < 4; i++) par.emplace(NAMES[i], p[i]);
  double s = par["alpha"] * par.at("beta");
  auto it = par.find("gamma");
  if (it != par.end()) s += std::exp(it->second);
  for (const auto &kv : par) {
    auto e = power.find(kv.first);
    if (e != power.end()) s += std::pow(kv.second, e->second);
  }
  par["delta"] *= 3.0;
  return s + par.at("delta");
}

extern int enzyme_dup, enzyme_const;

int main() {
  std::map<std::string, int> power = {{"alpha", 2}, {"delta", 3}, {"zeta", 5}};
  double p[4] = {0.9, -1.2, 0.4, 0.7}, dp[4] = {0}, fd[4];
  __enzyme_autodiff<void>((void *)named_model, enzyme_dup, p, dp, enzyme_const, &power);
  fz_check("d/dalpha", dp[0], p[1] + 2 * p[0], 1e-12);
  fz_check("d/dbeta", dp[1], p[0], 1e-12);
  fz_check("d/dgamma", dp[2], std::exp(p[2]), 1e-12);
  fz_check("d/ddelta", dp[3], 3 * p[3] * p[3] + 3, 1e-12);
  fz_fd_grad_of([&] { return named_model(p, power); }, p, 4, fd);
  fz_check_arr("finite differences", dp, fd, 4, 1e-6);
  return fz_finish();
}
