// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// Small fixed-size Eigen geometry as robotics and graphics users write it: `Vector3d`
// `cross`, `normalized`, `dot`, `Matrix3d` `determinant`, `inverse`, `transpose`,
// `AngleAxisd` to a rotation matrix, `Quaterniond` built from it and applied to a vector,
// `Map<const Vector3d>` over the user's arrays. Differentiated with respect to the
// arrays. Oracle: central finite differences (fourth order) of the primal.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <Eigen/Geometry>

double pose_loss(const double *p, const double *q, const double *axis_angle) {
  Eigen::Map<const Eigen::Vector3d> a(p), b(q), aa(axis_angle);
  Eigen::Vector3d n = a.cross(b).normalized();
  Eigen::Matrix3d M;
  M.col(0) = a;
  M.col(1) = b;
  M.col(2) = n + Eigen::Vector3d(0.5, 0.0, 1.0);
  double det = M.determinant();
  Eigen::Matrix3d Minv = M.inverse();
  Eigen::AngleAxisd rot(aa.norm(), aa.normalized());
  Eigen::Matrix3d R = rot.toRotationMatrix();
  Eigen::Quaterniond qr(R);
  Eigen::Vector3d ra = qr * a;
  return det * det + (Minv.transpose() * b).squaredNorm() + ra.dot(b) + (R * n).x();
}

int main() {
  double p[3] = {1.0, 0.2, -0.5}, q[3] = {0.3, 1.1, 0.4}, w[3] = {0.2, -0.4, 0.7};
  double dp[3] = {0}, dq[3] = {0}, dw[3] = {0};
  __enzyme_autodiff<void>((void *)pose_loss, enzyme_dup, p, dp, enzyme_dup, q, dq, enzyme_dup, w, dw);
  auto f = [&] { return pose_loss(p, q, w); };
  double fp[3], fq[3], fw[3];
  fz_fd_grad_of(f, p, 3, fp);
  fz_fd_grad_of(f, q, 3, fq);
  fz_fd_grad_of(f, w, 3, fw);
  fz_check_arr("dp fd", dp, fp, 3, 1e-6);
  fz_check_arr("dq fd", dq, fq, 3, 1e-6);
  fz_check_arr("daxis_angle fd", dw, fw, 3, 1e-6);
  return fz_finish();
}
