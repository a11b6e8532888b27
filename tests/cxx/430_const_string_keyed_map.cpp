// OPT: O0 O2
// CFLAGS: -std=c++20
// Constant parameters looked up by `std::string` keys: a `std::map<std::string, double>`
// (`at`, `find`, range-for) and a `std::unordered_map<std::string, double>` inside an
// `enzyme_const` struct, with an active input. Oracle: the analytic gradient, central
// differences, forward/reverse dot product, and the constant struct unchanged. A
// regression test (cxx36): at -O0 `find("beta")` crashed the reverse sweep (SIGSEGV, also
// with the base binary): type analysis learned nothing of the node it returns, and the
// iterator was kept with a null shadow.
#include "fz_cxx.h"
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

struct Params {
  std::map<std::string, double> p;
  std::unordered_map<std::string, double> q;
};

double model(const double *x, const Params *P, int n) {
  double s = P->p.at("alpha") * x[0] * x[1];
  auto it = P->p.find("beta");
  if (it != P->p.end()) s += it->second * std::sin(x[2]);
  for (const auto &[name, v] : P->p)
    if (name.size() == 5) s += v * x[3];  // "alpha", "gamma"
  s += P->q.at("kappa") * std::exp(x[n - 1]);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.5, 0.8, 0.15}, dx[n] = {0}, fd[n], want[n] = {0};
  Params P{{{"alpha", 0.5}, {"beta", -1.25}, {"gamma", 2.0}}, {{"kappa", 0.75}, {"mu", 3.0}}};
  const Params P0 = P;
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, &P, enzyme_const, n);
  fz_check("enzyme_const struct unchanged", P.p == P0.p && P.q == P0.q ? 1 : 0, 1, 0);
  want[0] += 0.5 * x[1], want[1] += 0.5 * x[0];
  want[2] += -1.25 * std::cos(x[2]);
  want[3] += 0.5 + 2.0;
  want[3] += 0.75 * std::exp(x[3]);
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_fd_grad_of([&] { return model(x, &P0, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9}, dv = 0;
  for (int k = 0; k < n; k++) dv += want[k] * v[k];
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v, enzyme_const, &P,
                                       enzyme_const, n);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("enzyme_const struct unchanged after forward", P.p == P0.p && P.q == P0.q ? 1 : 0, 1, 0);
  return fz_finish();
}
