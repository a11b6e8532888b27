// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: Eigen's `pxor(a, b)` is a function at -O0, its sign mask an argument: "integer arithmetic on the bits of a floating-point value cannot be differentiated" (a clear refusal; the mask is a constant only once inlined)
// IGNORE-REF: as at -O0 (`pxor` with its mask as an argument)
// Fixed-size Eigen solves as structural and robotics codes write them (sweep22): a 6x6
// stiffness-like matrix `Matrix<double, 6, 6>` assembled from active parameters, a
// `triangularView<Lower>().solve`, an `llt().solve` of its normal matrix, `.array()`
// element-wise ops, and a `Matrix4d::inverse()` and `determinant()`
// (Eigen's SSE cofactor kernel, which flips signs lane by lane with `xor <2 x i64>`:
// before sweep22 reverse mode dropped those lanes' adjoints, a silently wrong gradient
// at -O1..-O3, and forward mode refused them). Oracles: finite differences of every
// result, the cofactor formula of the 4x4 inverse's derivative (d B^{-1} = -B^{-1} dB
// B^{-1}, with B^{-1} from an independent Gaussian elimination), forward vs reverse.
// (Pivoting 6x6 solves: cxx/192, ignored.)
#include "fz_cxx.h"
#include <Eigen/Dense>

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

static Mat6 assemble(const double *k) {
  // A chain of 6 springs k[0..5] plus a diagonal mass term k[6]: tridiagonal + diag, SPD.
  Mat6 A = Mat6::Zero();
  for (int i = 0; i < 6; i++) {
    A(i, i) += k[i] + k[6] * (1 + 0.1 * i);
    if (i + 1 < 6) {
      A(i, i) += k[i + 1];
      A(i, i + 1) -= k[i + 1];
      A(i + 1, i) -= k[i + 1];
    }
    A(i, (i + 3) % 6) += 0.05 * k[i];  // a little asymmetry
  }
  return A;
}

static Vec6 load() {
  Vec6 b;
  b << 1.0, -0.5, 0.25, 2.0, -1.0, 0.75;
  return b;
}

double solves(const double *k) {
  Mat6 A = assemble(k);
  Mat6 S = A.transpose() * A;  // SPD
  Vec6 b = load();
  Vec6 x1 = A.triangularView<Eigen::Lower>().solve(b);
  Vec6 x2 = S.llt().solve(b);
  Vec6 w;
  w << 1, 2, 3, -1, 0.5, 0.2;
  return w.dot(x1) + 0.5 * x2.squaredNorm() + (A.array() * A.array()).sqrt().sum() * 0.01;
}

double det_inv(const double *k) {
  Mat6 A = assemble(k);
  Eigen::Matrix4d B;
  B << k[0], 0.1, 0.2, k[1], 0.3, k[2] + 1, 0.0, 0.4, 0.1, 0.2, k[3] + 2, 0.1, k[4], 0.0, 0.3, k[5] + 1.5;
  (void)A;
  return B.inverse().sum() + B.determinant() + B.topLeftCorner<3, 3>().inverse()(0, 2);
}

// Independent dense solve (Gaussian elimination with partial pivoting) for the oracle.
static void gauss(double M[6][6], double *rhs) {
  for (int c = 0; c < 6; c++) {
    int p = c;
    for (int r = c + 1; r < 6; r++)
      if (std::fabs(M[r][c]) > std::fabs(M[p][c])) p = r;
    for (int j = 0; j < 6; j++) std::swap(M[c][j], M[p][j]);
    std::swap(rhs[c], rhs[p]);
    for (int r = c + 1; r < 6; r++) {
      double f = M[r][c] / M[c][c];
      for (int j = c; j < 6; j++) M[r][j] -= f * M[c][j];
      rhs[r] -= f * rhs[c];
    }
  }
  for (int r = 5; r >= 0; r--) {
    for (int j = r + 1; j < 6; j++) rhs[r] -= M[r][j] * rhs[j];
    rhs[r] /= M[r][r];
  }
}

int main() {
  double k[7] = {2.0, 1.5, 3.0, 2.5, 1.2, 2.2, 0.4};
  double dk[7] = {0};
  __enzyme_autodiff<void>((void *)solves, enzyme_dup, k, dk);
  double fd[7];
  fz_fd_grad_of([&] { return solves(k); }, k, 7, fd);
  fz_check_arr("solves: d/dk vs finite differences", dk, fd, 7, 1e-6);

  double dk2[7] = {0};
  __enzyme_autodiff<void>((void *)det_inv, enzyme_dup, k, dk2);
  double fd2[7];
  fz_fd_grad_of([&] { return det_inv(k); }, k, 7, fd2);
  fz_check_arr("det/inverse: d/dk vs finite differences", dk2, fd2, 7, 1e-6);

  {
    // d sum(B^{-1}) / dk = -1^T B^{-1} (dB/dk) B^{-1} 1; B^{-1} 1 and B^{-T} 1 by Gauss.
    auto Bof = [&](const double *kk, double M[4][4]) {
      double v[16] = {kk[0], 0.1, 0.2, kk[1], 0.3, kk[2] + 1, 0.0, 0.4, 0.1, 0.2, kk[3] + 2, 0.1, kk[4], 0.0, 0.3, kk[5] + 1.5};
      for (int i = 0; i < 16; i++) M[i / 4][i % 4] = v[i];
    };
    auto solve4 = [](double M[4][4], double *r) {
      for (int c = 0; c < 4; c++) {
        int p = c;
        for (int q = c + 1; q < 4; q++)
          if (std::fabs(M[q][c]) > std::fabs(M[p][c])) p = q;
        for (int j = 0; j < 4; j++) std::swap(M[c][j], M[p][j]);
        std::swap(r[c], r[p]);
        for (int q = c + 1; q < 4; q++) {
          double f = M[q][c] / M[c][c];
          for (int j = c; j < 4; j++) M[q][j] -= f * M[c][j];
          r[q] -= f * r[c];
        }
      }
      for (int q = 3; q >= 0; q--) {
        for (int j = q + 1; j < 4; j++) r[q] -= M[q][j] * r[j];
        r[q] /= M[q][q];
      }
    };
    double M[4][4], MT[4][4], u[4] = {1, 1, 1, 1}, v[4] = {1, 1, 1, 1};
    Bof(k, M);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) MT[i][j] = M[j][i];
    solve4(M, v);   // B^{-1} 1
    solve4(MT, u);  // B^{-T} 1
    // positions of k[0..5] in B: (0,0) (0,3) (1,1) (2,2) (3,0) (3,3)
    const int pos[6][2] = {{0, 0}, {0, 3}, {1, 1}, {2, 2}, {3, 0}, {3, 3}};
    double inv_part[6];
    for (int p = 0; p < 6; p++) inv_part[p] = -u[pos[p][0]] * v[pos[p][1]];
    double fd_rest[6];
    for (int p = 0; p < 6; p++) {
      Eigen::Matrix4d B;
      auto rest = [&] {
        double M2[4][4];
        Bof(k, M2);
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 4; j++) B(i, j) = M2[i][j];
        return B.determinant() + B.topLeftCorner<3, 3>().inverse()(0, 2);
      };
      fd_rest[p] = fz_fd(rest, k[p]);
      inv_part[p] += fd_rest[p];
    }
    fz_check_arr("4x4: d sum(inverse) by d B^{-1} = -B^{-1} dB B^{-1}", dk2, inv_part, 6, 1e-7);
  }
  double t[7] = {0.3, -0.1, 0.2, 0.5, -0.4, 0.1, 0.7}, dot = 0, dot2 = 0;
  for (int i = 0; i < 7; i++) dot += t[i] * dk[i], dot2 += t[i] * dk2[i];
  double jt = __enzyme_fwddiff<double>((void *)solves, enzyme_dup, k, t);
  fz_check("solves: forward . t vs reverse", jt, dot, 1e-10);
  double jt2 = __enzyme_fwddiff<double>((void *)det_inv, enzyme_dup, k, t);
  fz_check("det/inverse: forward . t vs reverse", jt2, dot2, 1e-10);
  return fz_finish();
}
