// OPT: O0 O2
// CFLAGS: -std=c++17
// cxx/345's `std::map<std::string, double>` of named parameters built inside the
// differentiated function, with the names read from a *mutable* global table of string
// pointers (`static const char *NAMES[]`, not `const char *const`): the keys' characters
// are copied from memory reached through a writable global. Oracle: the analytic gradient.
// Until cxx31 -O2 and the plugin refused `_M_construct_node`'s `strlen`-long memcpy of the
// key (cannot-deduce-type), then stopped at run time on the global's null shadow: a copy of
// `strlen(s)` characters from `s` moves no floats (`reverse/vector.rs`, `copies_c_string`).
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <string>

static const char *NAMES[3] = {"alpha", "beta", "gamma"};

double named(const double *p) {
  std::map<std::string, double> par;
  for (int i = 0; i < 3; i++) par.emplace(NAMES[i], p[i]);
  return par["alpha"] * par.at("beta") + std::exp(par["gamma"]);
}

extern int enzyme_dup;

int main() {
  double p[3] = {0.9, -1.2, 0.4}, dp[3] = {0};
  __enzyme_autodiff<void>((void *)named, enzyme_dup, p, dp);
  fz_check("d/dalpha", dp[0], p[1], 1e-12);
  fz_check("d/dbeta", dp[1], p[0], 1e-12);
  fz_check("d/dgamma", dp[2], std::exp(p[2]), 1e-12);
  return fz_finish();
}
