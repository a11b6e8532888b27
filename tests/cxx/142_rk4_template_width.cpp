// OPT: O0 O1 O2 O3
// A templated RK4 integrator over `std::array<double, 2>` states (a damped pendulum,
// right-hand side a lambda capturing the damping by value), states returned by value
// from `step`; the final angle as a function of (theta0, omega0, damping). Forward
// vector mode `__enzyme_fwddiff` with `enzyme_width, 3` (all three directions at once,
// results in a struct of three doubles) against reverse mode (`enzyme_out` for the three
// scalars, a struct of three gradients) and central finite differences.
#include "fz_cxx.h"
#include <array>
#include <cmath>

extern int enzyme_width;
typedef std::array<double, 2> St;
struct G3 {
  double d0, d1, d2;
};
extern "C" G3 __enzyme_fwddiff_w3(void *, ...);
extern "C" G3 __enzyme_autodiff_g3(void *, ...);

template <class F>
static St step(F f, St y, double h) {
  auto add = [](St a, St b, double s) { return St{a[0] + s * b[0], a[1] + s * b[1]}; };
  St k1 = f(y), k2 = f(add(y, k1, h / 2)), k3 = f(add(y, k2, h / 2)), k4 = f(add(y, k3, h));
  return St{y[0] + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
            y[1] + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])};
}

double final_angle(double th0, double om0, double c) {
  auto rhs = [c](St y) { return St{y[1], -std::sin(y[0]) - c * y[1]}; };
  St y{th0, om0};
  for (int i = 0; i < 200; i++) y = step(rhs, y, 0.02);
  return y[0];
}

int main() {
  double a = 0.9, b = -0.4, c = 0.15;
  G3 t = __enzyme_fwddiff_w3((void *)final_angle, enzyme_width, 3, a, 1.0, 0.0, 0.0, b, 0.0, 1.0,
                             0.0, c, 0.0, 0.0, 1.0);
  G3 g = __enzyme_autodiff_g3((void *)final_angle, enzyme_out, a, enzyme_out, b, enzyme_out, c);
  double fa = fz_fd([&] { return final_angle(a, b, c); }, a);
  double fb = fz_fd([&] { return final_angle(a, b, c); }, b);
  double fc = fz_fd([&] { return final_angle(a, b, c); }, c);
  fz_check("width-3 lane 0 vs fd", t.d0, fa, 1e-6);
  fz_check("width-3 lane 1 vs fd", t.d1, fb, 1e-6);
  fz_check("width-3 lane 2 vs fd", t.d2, fc, 1e-6);
  fz_check("reverse d theta0 vs forward", g.d0, t.d0, 1e-11);
  fz_check("reverse d omega0 vs forward", g.d1, t.d1, 1e-11);
  fz_check("reverse d damping vs forward", g.d2, t.d2, 1e-11);
  return fz_finish();
}
