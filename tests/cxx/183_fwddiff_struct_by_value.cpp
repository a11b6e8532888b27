// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Forward mode of C++ functions that return aggregates by value (sweep20):
// `std::array<double, 3>` and a `Vec3` of three doubles (returned through a hidden
// `sret` pointer on x86-64), `std::pair<double, double>` (two registers), a struct of
// four doubles built by a member function, all through `__enzyme_fwddiff<T>` declared to
// return the same type: the hook's result is the tangent. Before sweep20 the sret cases
// were refused ("missing shadow pointer for argument 1"). Oracles: analytic Jacobian
// columns of the maps, and a finite-difference directional derivative.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <utility>

struct Vec3 {
  double x, y, z;
};
struct Quat {
  double w, x, y, z;
  Quat mul(const Quat &o) const {
    return {w * o.w - x * o.x - y * o.y - z * o.z, w * o.x + x * o.w + y * o.z - z * o.y,
            w * o.y - x * o.z + y * o.w + z * o.x, w * o.z + x * o.y - y * o.x + z * o.w};
  }
};

std::array<double, 3> cyl(double r, double th, double h) {
  return {r * std::cos(th), r * std::sin(th), h * r};
}
Vec3 lorenz(const double *s, double sigma) {
  return {sigma * (s[1] - s[0]), s[0] * (28.0 - s[2]) - s[1], s[0] * s[1] - 8.0 / 3.0 * s[2]};
}
std::pair<double, double> sincos_scaled(double a, double k) {
  return {k * std::sin(a), k * std::cos(a)};
}
Quat qsquare(double w, double x) {
  Quat q{w, x, 0.5, -0.25};
  return q.mul(q);
}

int main() {
  double r = 1.4, th = 0.6, h = -0.7;
  auto c = __enzyme_fwddiff<std::array<double, 3>>((void *)cyl, r, 0.0, th, 1.0, h, 0.0);
  fz_check("cyl d/dth x", c[0], -r * std::sin(th), 1e-15);
  fz_check("cyl d/dth y", c[1], r * std::cos(th), 1e-15);
  fz_check("cyl d/dth z", c[2], 0.0, 0);
  c = __enzyme_fwddiff<std::array<double, 3>>((void *)cyl, r, 1.0, th, 0.0, h, 0.0);
  fz_check("cyl d/dr z", c[2], h, 1e-15);

  double s[3] = {1.1, -0.4, 20.0}, ds[3] = {0.3, 1.0, -0.5}, sigma = 10.0;
  Vec3 v = __enzyme_fwddiff<Vec3>((void *)lorenz, enzyme_dup, s, ds, enzyme_const, sigma);
  fz_check("lorenz J ds x", v.x, sigma * (ds[1] - ds[0]), 1e-13);
  fz_check("lorenz J ds y", v.y, ds[0] * (28.0 - s[2]) - s[0] * ds[2] - ds[1], 1e-13);
  fz_check("lorenz J ds z", v.z, ds[0] * s[1] + s[0] * ds[1] - 8.0 / 3.0 * ds[2], 1e-13);
  auto fy = [&]() { return lorenz(s, sigma).y; };
  fz_check("lorenz y vs FD", v.y, fz_fd_dir_of(fy, s, ds, 3), 1e-6);

  auto p = __enzyme_fwddiff<std::pair<double, double>>((void *)sincos_scaled, 0.9, 1.0, 2.0, 0.0);
  fz_check("pair first", p.first, 2.0 * std::cos(0.9), 1e-15);
  fz_check("pair second", p.second, -2.0 * std::sin(0.9), 1e-15);

  // q^2 with q = (w, x, 0.5, -0.25): d/dw = 2 q (as a quaternion product with (1,0,0,0)).
  double w = 0.8, x = -0.3;
  Quat d = __enzyme_fwddiff<Quat>((void *)qsquare, w, 1.0, x, 0.0);
  fz_check("quat d/dw w", d.w, 2 * w, 1e-15);
  fz_check("quat d/dw x", d.x, 2 * x, 1e-15);
  fz_check("quat d/dw y", d.y, 2 * 0.5, 1e-15);
  fz_check("quat d/dw z", d.z, 2 * -0.25, 1e-15);
  return fz_finish();
}
