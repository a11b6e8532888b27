// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE: Eigen's pivoting decompositions (and the 6x6 `inverse()`, which goes through `PartialPivLU` kept as an object) hold integer permutations (`PermutationMatrix<6, 6, int>`, `Transpositions`) and pivot counts next to the factor; type analysis finds the integer accesses ambiguous: cannot-deduce-type in `FullPivLU::computeInPlace`, `ColPivHouseholderQR::computeInPlace`, `PermutationBase::operator=` and at `householderQr` at every level (cxx/103's LDLT family)
// Rank-revealing and orthogonal fixed-size solves (sweep22): a 6x6 system assembled from
// active parameters solved with `fullPivLu()`, `householderQr()` and
// `colPivHouseholderQr()`, and `inverse() * b`. Oracles: the adjoint identity df/dk = -lambda^T (dA/dk) x
// with A^T lambda = dg/dx (an independent Gaussian elimination), finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

static Mat6 assemble(const double *k) {
  Mat6 A = Mat6::Zero();
  for (int i = 0; i < 6; i++) {
    A(i, i) += k[i] + k[6] * (1 + 0.1 * i);
    if (i + 1 < 6) {
      A(i, i) += k[i + 1];
      A(i, i + 1) -= k[i + 1];
      A(i + 1, i) -= k[i + 1];
    }
    A(i, (i + 3) % 6) += 0.05 * k[i];
  }
  return A;
}

double solves(const double *k) {
  Mat6 A = assemble(k);
  Vec6 b;
  b << 1.0, -0.5, 0.25, 2.0, -1.0, 0.75;
  Vec6 x1 = A.fullPivLu().solve(b);
  Vec6 x2 = A.householderQr().solve(b);
  Vec6 x3 = A.colPivHouseholderQr().solve(b);
  Vec6 x4 = A.inverse() * b;
  return x1.sum() + 0.5 * x2.squaredNorm() + x3(2) + x4(4);
}

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
  fz_check_arr("d/dk vs finite differences", dk, fd, 7, 1e-6);
  Mat6 A = assemble(k);
  double M[6][6], x[6] = {1.0, -0.5, 0.25, 2.0, -1.0, 0.75};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) M[i][j] = A(i, j);
  gauss(M, x);
  double lam[6], MT[6][6];
  for (int i = 0; i < 6; i++) lam[i] = 1.0 + x[i] + (i == 2 ? 1.0 : 0.0) + (i == 4 ? 1.0 : 0.0);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) MT[i][j] = A(j, i);
  gauss(MT, lam);
  double want[7];
  for (int p = 0; p < 7; p++) {
    double e[7] = {0};
    e[p] = 1;
    Mat6 dA = assemble(e);
    double v = 0;
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++) v -= lam[i] * dA(i, j) * x[j];
    want[p] = v;
  }
  fz_check_arr("d/dk vs adjoint identity", dk, want, 7, 1e-10);
  return fz_finish();
}
