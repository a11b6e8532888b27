// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE -Wno-deprecated-declarations
// A fixed-size Eigen factorization inside the differentiated function: an SPD 4x4 built
// as `B^T B + 2 I` from the inputs, `ldlt().solve(b)` and `.inverse()` in a quadratic
// form, `1.5 b^T K^{-1} b` (`Eigen::LLT` of the same matrix is tests/cxx/334). Gradients
// against finite differences and, for b, the analytic `3 K^{-1} b`.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <cmath>

extern int enzyme_dup, enzyme_const, enzyme_out;

using Mat4 = Eigen::Matrix4d;
using Vec4 = Eigen::Vector4d;

static Mat4 spd(const double *p) {
  Mat4 B = Eigen::Map<const Mat4>(p);
  return B.transpose() * B + 2.0 * Mat4::Identity();
}

double gp_ldlt(const double *p, const double *bb) {
  Mat4 K = spd(p);
  Vec4 b = Eigen::Map<const Vec4>(bb);
  Vec4 a = K.ldlt().solve(b);
  return b.dot(a) + 0.5 * b.dot(K.inverse() * b);
}

int main() {
  double p[16], bb[4];
  fz_seed(332);
  fz_fill(p, 16, -1.0, 1.0);
  fz_fill(bb, 4, -1.0, 1.0);
  Mat4 K = spd(p);
  Vec4 b = Eigen::Map<const Vec4>(bb);
  double dp2[16] = {0}, db2[4] = {0}, wp[16];
  __enzyme_autodiff<void>((void *)gp_ldlt, enzyme_dup, p, dp2, enzyme_dup, bb, db2);
  fz_fd_grad_of([&] { return gp_ldlt(p, bb); }, p, 16, wp);
  fz_check_arr("ldlt d/dB", dp2, wp, 16, 1e-6);
  Vec4 g2 = 3.0 * K.inverse() * b;
  fz_check_arr("ldlt d/db analytic", db2, g2.data(), 4, 1e-10);
  return fz_finish();
}
