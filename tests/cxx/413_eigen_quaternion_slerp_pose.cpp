// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE
// A pose residual as SLAM and animation code writes it with Eigen's geometry module:
// orientations built from `AngleAxisd` rotations composed as `Quaterniond`s (rotation
// vectors from the parameters), `slerp` between two poses at a constant fraction, the
// relative rotation `q_meas.conjugate() * q_interp` turned back into an angle with
// `AngleAxisd(q)` (an `atan2` of the vector part's norm), a point rotated by
// `toRotationMatrix()` and by the quaternion itself, and an `Isometry3d` applied to a
// landmark. Oracle: central differences, the analytic derivative of the rotation angle
// of one `AngleAxisd` (|d angle / d theta| = 1 along its own axis), forward/reverse dot
// products. Built with EIGEN_DONT_VECTORIZE: with Eigen's SSE2 packets the same program is
// refused clearly (cxx35): at -O0 `Eigen::internal::pxor<Packet2d>` flips signs with a
// mask passed as an argument ("integer arithmetic on the bits of a floating-point
// value"), and at -O2 clang loads slerp's `{double scale, const double *coeffs}`
// expression as a `<2 x double>` and rebuilds the pointer with `inttoptr` ("a pointer
// rebuilt from an integer"); never a wrong number.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cmath>

using Eigen::AngleAxisd;
using Eigen::Quaterniond;
using Eigen::Vector3d;

static Quaterniond from_rotvec(const double *r) {
  Vector3d v(r[0], r[1], r[2]);
  double th = v.norm();
  return Quaterniond(AngleAxisd(th, v / th));
}

// p: rotation vectors of poses a and b (6), translations of a and b (6).
// c: a measured rotation vector (3), a landmark (3), the slerp fraction (1).
double residual(const double *p, const double *c) {
  Quaterniond qa = from_rotvec(p), qb = from_rotvec(p + 3);
  Quaterniond qm = from_rotvec(c);
  double t = c[6];
  Quaterniond qi = qa.slerp(t, qb);
  Quaterniond rel = qm.conjugate() * qi;
  double ang = AngleAxisd(rel.normalized()).angle();
  Vector3d ta(p[6], p[7], p[8]), tb(p[9], p[10], p[11]);
  Vector3d ti = (1 - t) * ta + t * tb;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = qi.toRotationMatrix();
  T.translation() = ti;
  Vector3d lm(c[3], c[4], c[5]);
  Vector3d seen = T * lm;
  Vector3d seen_q = qi * lm + ti;  // the same point through the quaternion
  double e = (seen - Vector3d(0.2, -0.1, 1.5)).squaredNorm();
  return ang * ang + e + 0.5 * (seen_q - seen).squaredNorm() + seen_q.sum();
}

double angle_of(const double *r) { return AngleAxisd(from_rotvec(r)).angle(); }

extern int enzyme_dup, enzyme_const;

int main() {
  double p[12] = {0.3, -0.2, 0.5, 0.1, 0.4, -0.3, 0.5, -0.2, 0.8, 0.6, 0.1, 0.9};
  double c[7] = {0.25, 0.05, 0.1, 0.7, -0.4, 1.2, 0.35};
  double dp[12] = {0}, fd[12];
  __enzyme_autodiff<void>((void *)residual, enzyme_dup, p, dp, enzyme_const, c);
  fz_fd_grad_of([&] { return residual(p, c); }, p, 12, fd);
  fz_check_arr("d/dp finite differences", dp, fd, 12, 1e-6);
  // the angle of a rotation vector is its norm (below pi): d angle / d r = r / |r|
  double r[3] = {0.3, -0.2, 0.5}, dr[3] = {0}, want[3];
  __enzyme_autodiff<void>((void *)angle_of, enzyme_dup, r, dr);
  double nr = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  for (int i = 0; i < 3; i++) want[i] = r[i] / nr;
  fz_check_arr("d angle / d r analytic", dr, want, 3, 1e-10);
  double v[12], dv = 0;
  for (int i = 0; i < 12; i++) v[i] = std::cos(0.7 * i + 0.1);
  for (int i = 0; i < 12; i++) dv += dp[i] * v[i];
  double jv = __enzyme_fwddiff<double>((void *)residual, enzyme_dup, p, v, enzyme_const, c);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-10);
  return fz_finish();
}
