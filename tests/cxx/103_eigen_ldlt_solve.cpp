// OPT: O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-REF: the --ad-before-opt trial is refused with unsupported-instruction ("integer arithmetic on the bits of a floating-point value") in `_mm_and_pd` (SSE sign masks of the unoptimized IR). -O2/-O3 pass (checked in stl24: the pivot `int` store into `m_transpositions` that was refused with cannot-deduce-type is accepted). No wrong number.
// A solve through `Eigen::LDLT` on a well-conditioned SPD matrix built from a user array
// with `Eigen::Map` (100 has Map, norm, dot and products). Oracle: finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>

double spd_solve(const double *s, const double *rhs) {
  Eigen::Matrix3d M = Eigen::Map<const Eigen::Matrix3d>(s);
  Eigen::Matrix3d A = M * M.transpose() + 3.0 * Eigen::Matrix3d::Identity();
  Eigen::Vector3d b = Eigen::Map<const Eigen::Vector3d>(rhs);
  Eigen::Vector3d z = A.ldlt().solve(b);
  return z.cwiseProduct(b).sum();
}

int main() {
  double s[9], r[3], ds[9] = {0}, dr[3] = {0};
  fz_fill(s, 9, -1, 1);
  fz_fill(r, 3, -1, 1);
  __enzyme_autodiff<void>((void *)spd_solve, enzyme_dup, s, ds, enzyme_dup, r, dr);
  auto fs = [&] { return spd_solve(s, r); };
  for (int i = 0; i < 9; i++) fz_check("solve ds", ds[i], fz_fd(fs, s[i]), 1e-6);
  for (int i = 0; i < 3; i++) fz_check("solve dr", dr[i], fz_fd(fs, r[i]), 1e-6);
  return fz_finish();
}
