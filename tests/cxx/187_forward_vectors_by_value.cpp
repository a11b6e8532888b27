// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Forward mode on functions that return vectors by value, the way a robotics user writes
// them (sweep20): `Eigen::Vector3d` results (24 bytes, returned through a hidden `sret`
// pointer) of a rotation applied to a point and of a cross product, differentiated with
// `__enzyme_fwddiff<Eigen::Vector3d>` (the hook's result is the tangent vector), and an
// output `std::vector<double> &` filled by `push_back` inside the function, its tangent
// a second `std::vector<double>` grown alongside (`enzyme_dup, &out, &dout`). Oracles:
// analytic derivatives of the rotation (d/dtheta R(theta) p = R'(theta) p) and the cross
// product (bilinear), finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>
#include <vector>

Eigen::Vector3d rotate_z(double th, const double *p) {
  Eigen::Matrix3d R;
  R << std::cos(th), -std::sin(th), 0, std::sin(th), std::cos(th), 0, 0, 0, 1;
  return R * Eigen::Vector3d(p[0], p[1], p[2]);
}

Eigen::Vector3d crossed(const double *a, const double *b) {
  Eigen::Vector3d u(a[0], a[1], a[2]), v(b[0], b[1], b[2]);
  return u.cross(v);
}

void features(const std::vector<double> &x, std::vector<double> &out) {
  out.clear();
  for (double xi : x) out.push_back(std::exp(-xi * xi));
  for (size_t i = 0; i + 1 < x.size(); i++) out.push_back(x[i] * x[i + 1]);
}

int main() {
  double p[3] = {0.7, -1.1, 0.4}, th = 0.45;
  double dp0[3] = {0, 0, 0};
  Eigen::Vector3d d = __enzyme_fwddiff<Eigen::Vector3d>((void *)rotate_z, th, 1.0, enzyme_dup, p, dp0);
  fz_check("dR/dth p x", d[0], -std::sin(th) * p[0] - std::cos(th) * p[1], 1e-14);
  fz_check("dR/dth p y", d[1], std::cos(th) * p[0] - std::sin(th) * p[1], 1e-14);
  fz_check("dR/dth p z", d[2], 0.0, 0);
  double dp[3] = {0.2, 0.5, -1.0};
  d = __enzyme_fwddiff<Eigen::Vector3d>((void *)rotate_z, th, 0.0, enzyme_dup, p, dp);
  Eigen::Vector3d want = rotate_z(th, dp);  // linear in p
  for (int k = 0; k < 3; k++) fz_check("R dp", d[k], want[k], 1e-14);

  double a[3] = {1.0, 0.3, -0.2}, b[3] = {-0.5, 0.8, 1.2}, da[3] = {0.1, -0.4, 0.7},
         db[3] = {0.9, 0.2, -0.3};
  Eigen::Vector3d c = __enzyme_fwddiff<Eigen::Vector3d>((void *)crossed, enzyme_dup, a, da,
                                                        enzyme_dup, b, db);
  Eigen::Vector3d cw = crossed(da, b) + crossed(a, db);
  for (int k = 0; k < 3; k++) fz_check("cross tangent", c[k], cw[k], 1e-14);
  auto fc = [&]() { return crossed(a, b)[1]; };
  fz_check("cross y vs FD along da", c[1] - crossed(a, db)[1], fz_fd_dir_of(fc, a, da, 3), 1e-6);

  std::vector<double> x = {0.3, -0.8, 1.1, 0.5}, dx = {1.0, 0.5, -0.25, 2.0};
  std::vector<double> out, dout;
  __enzyme_fwddiff<void>((void *)features, enzyme_dup, &x, &dx, enzyme_dup, &out, &dout);
  fz_check("output size", out.size(), 7, 0);
  fz_check("tangent size", dout.size(), 7, 0);
  for (size_t i = 0; i < x.size() && dout.size() == 7; i++)
    fz_check("d exp(-x^2)", dout[i], -2 * x[i] * std::exp(-x[i] * x[i]) * dx[i], 1e-14);
  for (size_t i = 0; i + 1 < x.size() && dout.size() == 7; i++)
    fz_check("d x_i x_{i+1}", dout[4 + i], dx[i] * x[i + 1] + x[i] * dx[i + 1], 1e-14);
  return fz_finish();
}
