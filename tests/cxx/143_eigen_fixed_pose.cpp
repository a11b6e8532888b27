// OPT: O0 O1 O2 O3
// CFLAGS: -I/usr/include/eigen3
// IGNORE-O0: refused: mismatched activity in Eigen's `lazyProduct`/`operator*` (a pointer constant or differentiable depending on the run, used by `insertvalue`), no forward rule for the bit operations of `pnegate`/`pand`/`pabs`, memory holding pointers copied in `Map`'s constructor
// IGNORE-REF: fails on the unoptimized IR as -O0 does
// Eigen fixed-size types as robotics users write them: a planar 3-link arm's forward
// kinematics with `Eigen::Matrix3d` homogeneous transforms (rotation from the joint angle,
// translation by the link length) multiplied in a loop, the end effector `Vector3d`
// compared with a target by `squaredNorm()`, plus a joint-limit penalty with
// `Eigen::Array3d` (`exp`, `sum`). Reverse mode over the joint angles (a `double *`
// mapped with `Eigen::Map<const Vector3d>`), forward mode for one direction. Oracle: the
// analytic gradient of the closed form (sums of link lengths times cos/sin of partial
// angle sums) and the forward/reverse dot product.
#include "fz_cxx.h"
#include <Eigen/Dense>

static const double L[3] = {1.0, 0.7, 0.4};

double reach(const double *q, const double *target) {
  Eigen::Map<const Eigen::Vector3d> th(q);
  Eigen::Matrix3d T = Eigen::Matrix3d::Identity();
  for (int k = 0; k < 3; k++) {
    double c = std::cos(th[k]), s = std::sin(th[k]);
    Eigen::Matrix3d A;
    A << c, -s, L[k] * c, s, c, L[k] * s, 0, 0, 1;
    T = T * A;
  }
  Eigen::Vector3d e = T.col(2);
  Eigen::Vector2d d = e.head<2>() - Eigen::Map<const Eigen::Vector2d>(target);
  Eigen::Array3d pen = (th.array() * th.array() - 4.0).exp();
  return d.squaredNorm() + 0.01 * pen.sum();
}

int main() {
  double q[3] = {0.4, -0.7, 1.1}, dq[3] = {0}, tg[2] = {1.2, 0.6};
  __enzyme_autodiff<void>((void *)reach, enzyme_dup, q, dq, enzyme_const, tg);
  double a1 = q[0], a2 = q[0] + q[1], a3 = q[0] + q[1] + q[2];
  double x = L[0] * cos(a1) + L[1] * cos(a2) + L[2] * cos(a3);
  double y = L[0] * sin(a1) + L[1] * sin(a2) + L[2] * sin(a3);
  double dx[3] = {-y, -(L[1] * sin(a2) + L[2] * sin(a3)), -L[2] * sin(a3)};
  double dy[3] = {x, L[1] * cos(a2) + L[2] * cos(a3), L[2] * cos(a3)};
  double want[3];
  for (int k = 0; k < 3; k++)
    want[k] = 2 * (x - tg[0]) * dx[k] + 2 * (y - tg[1]) * dy[k] +
              0.01 * 2 * q[k] * std::exp(q[k] * q[k] - 4.0);
  fz_check_arr("reverse vs analytic", dq, want, 3, 1e-12);
  double v[3] = {0.3, 1.0, -0.5}, dv[3] = {0};
  double t = __enzyme_fwddiff<double>((void *)reach, enzyme_dup, q, v, enzyme_const, tg);
  double dot = 0;
  for (int k = 0; k < 3; k++) dot += want[k] * v[k];
  (void)dv;
  fz_check("forward vs reverse (dot product)", t, dot, 1e-12);
  return fz_finish();
}
