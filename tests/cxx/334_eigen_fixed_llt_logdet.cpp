// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3 -DEIGEN_DONT_VECTORIZE -Wno-deprecated-declarations
// `Eigen::LLT` of a fixed-size SPD 4x4 built as `B^T B + 2 I` inside the differentiated
// function: `llt.solve(b)` and the factor's log-determinant (`matrixL()` diagonal), a
// Gaussian-process style `b^T K^{-1} b + log det K`. Gradients against finite
// differences and, for b, the analytic `2 K^{-1} b`.
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

// b^T K^{-1} b + log det K
double gp_llt(const double *p, const double *bb) {
  Mat4 K = spd(p);
  Vec4 b = Eigen::Map<const Vec4>(bb);
  Eigen::LLT<Mat4> llt(K);
  Vec4 a = llt.solve(b);
  Mat4 L = llt.matrixL();
  double logdet = 0;
  for (int i = 0; i < 4; i++) logdet += 2.0 * std::log(L(i, i));
  return b.dot(a) + logdet;
}

int main() {
  double p[16], bb[4], dp[16] = {0}, db[4] = {0}, wp[16], wb[4];
  fz_seed(332);
  fz_fill(p, 16, -1.0, 1.0);
  fz_fill(bb, 4, -1.0, 1.0);
  __enzyme_autodiff<void>((void *)gp_llt, enzyme_dup, p, dp, enzyme_dup, bb, db);
  fz_fd_grad_of([&] { return gp_llt(p, bb); }, p, 16, wp);
  fz_fd_grad_of([&] { return gp_llt(p, bb); }, bb, 4, wb);
  fz_check_arr("llt d/dB", dp, wp, 16, 1e-6);
  fz_check_arr("llt d/db", db, wb, 4, 1e-6);
  // Analytic d/db = 2 K^{-1} b
  Mat4 K = spd(p);
  Vec4 b = Eigen::Map<const Vec4>(bb), g = 2.0 * K.inverse() * b;
  fz_check_arr("llt d/db analytic", db, g.data(), 4, 1e-10);

  return fz_finish();
}
