// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A kinetic model configured through a `std::map<std::string, double>` parameter table
// (sweep23), the way simulation codes read named parameters: the active rate constants
// are put into the table under string keys inside the differentiated function, looked
// up with `at()` and `operator[]`, a `std::string` built with `+` selects optional
// terms through `find()`, and a second, constant `std::map<std::string, double>` of
// physical constants is passed by `const &` (`enzyme_const`). An A -> B -> C chain is
// integrated with RK4 and the loss is the misfit of B at sample times. Oracles: central
// finite differences, forward mode against reverse mode (dot-product identity).
#include "fz_cxx.h"
#include <map>
#include <string>

double chain_misfit(const double *k, const std::map<std::string, double> &consts, int steps) {
  std::map<std::string, double> p;
  p["k_ab"] = k[0];
  p["k_bc"] = k[1];
  p["k_back"] = k[2];
  std::string mode = std::string("with") + "_back";
  bool back = mode.find("back") != std::string::npos;
  double temp = consts.at("temperature"), dt = consts.at("dt");
  double scale = std::exp(-consts.at("activation") / temp);
  double a = 1, b = 0, misfit = 0;
  auto rhs = [&](double A, double B, double &dA, double &dB) {
    double f = p.at("k_ab") * scale * A - (back ? p["k_back"] * B : 0.0);
    dA = -f;
    dB = f - p.at("k_bc") * B;
  };
  for (int s = 0; s < steps; s++) {
    double a1, b1, a2, b2, a3, b3, a4, b4;
    rhs(a, b, a1, b1);
    rhs(a + 0.5 * dt * a1, b + 0.5 * dt * b1, a2, b2);
    rhs(a + 0.5 * dt * a2, b + 0.5 * dt * b2, a3, b3);
    rhs(a + dt * a3, b + dt * b3, a4, b4);
    a += dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    b += dt / 6 * (b1 + 2 * b2 + 2 * b3 + b4);
    if (s % 5 == 4) {
      double t = (s + 1) * dt, target = 0.4 * std::sin(1.3 * t) + 0.3;
      misfit += (b - target) * (b - target);
    }
  }
  return misfit;
}

extern "C" double __enzyme_fwddiff(void *, ...);

int main() {
  std::map<std::string, double> consts{{"temperature", 300.0}, {"dt", 0.05}, {"activation", 150.0}};
  double k[3] = {2.1, 0.7, 0.3}, dk[3] = {0};
  __enzyme_autodiff<void>((void *)chain_misfit, enzyme_dup, k, dk, enzyme_const, &consts,
                          enzyme_const, 40);
  double fd[3];
  fz_fd_grad_of([&] { return chain_misfit(k, consts, 40); }, k, 3, fd);
  fz_check_arr("finite differences", dk, fd, 3, 1e-6);
  double v[3] = {0.4, -1.0, 0.7};
  double jv = __enzyme_fwddiff((void *)chain_misfit, enzyme_dup, k, v, enzyme_const, &consts,
                               enzyme_const, 40);
  fz_check("forward . v vs reverse", jv, v[0] * dk[0] + v[1] * dk[1] + v[2] * dk[2], 1e-10);
  return fz_finish();
}
