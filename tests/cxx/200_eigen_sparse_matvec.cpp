// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: cannot-deduce-type at the sparse matrix's `int` inner indices and outer starts (`SparseCompressedBase::InnerIterator::index`, `set_from_triplets`), stored next to the values in memory type analysis sees as Anything when nothing is inlined (cxx/103's and cxx/192's integer-beside-double family); -O1..-O3 and the plugin pass
// IGNORE-REF: as at -O0 (cannot-deduce-type at the integer index loads and at a memcpy of the matrix)
// A sparse least-squares residual as FEM/graph codes write it with Eigen (sweep23): a
// 1-D Laplacian-plus-coupling `Eigen::SparseMatrix<double>` assembled from triplets
// (constant structure and values, built inside the function), multiplied by the active
// unknowns mapped from a raw array (`Eigen::Map<const VectorXd>`), a diagonal reaction
// term with active coefficients `k` added entry by entry, and the loss
// 0.5 ||A u + k .* u^3 - b||^2. Oracles: the analytic gradient (A^T r + 3 k u^2 r for u,
// u^3 r for k), central finite differences.
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

constexpr int N = 10;

static Eigen::SparseMatrix<double> laplacian(int n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; i++) {
    t.emplace_back(i, i, 2.0 + 0.1 * i);
    if (i > 0) t.emplace_back(i, i - 1, -1.0);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0);
    if (i + 3 < n) t.emplace_back(i, i + 3, 0.25); // a long-range coupling
  }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

double residual_loss(const double *u, const double *k, const double *b, int n) {
  Eigen::SparseMatrix<double> a = laplacian(n);
  Eigen::Map<const Eigen::VectorXd> uv(u, n), bv(b, n);
  Eigen::VectorXd r = a * uv - bv;
  for (int i = 0; i < n; i++) r[i] += k[i] * u[i] * u[i] * u[i];
  return 0.5 * r.squaredNorm();
}

int main() {
  double u[N], k[N], b[N];
  fz_seed(200);
  fz_fill(u, N, -1, 1);
  fz_fill(k, N, 0.1, 0.6);
  fz_fill(b, N, -0.5, 0.5);
  double du[N] = {0}, dk[N] = {0};
  __enzyme_autodiff<void>((void *)residual_loss, enzyme_dup, u, du, enzyme_dup, k, dk,
                          enzyme_const, b, enzyme_const, N);
  Eigen::MatrixXd a = Eigen::MatrixXd(laplacian(N));
  Eigen::VectorXd uv = Eigen::Map<Eigen::VectorXd>(u, N);
  Eigen::VectorXd r = a * uv - Eigen::Map<Eigen::VectorXd>(b, N);
  for (int i = 0; i < N; i++) r[i] += k[i] * u[i] * u[i] * u[i];
  Eigen::VectorXd gu = a.transpose() * r;
  double wu[N], wk[N];
  for (int i = 0; i < N; i++) {
    wu[i] = gu[i] + 3 * k[i] * u[i] * u[i] * r[i];
    wk[i] = u[i] * u[i] * u[i] * r[i];
  }
  fz_check_arr("d/du analytic", du, wu, N, 1e-10);
  fz_check_arr("d/dk analytic", dk, wk, N, 1e-10);
  auto f = [&] { return residual_loss(u, k, b, N); };
  double fu[N], fk[N];
  fz_fd_grad_of(f, u, N, fu);
  fz_fd_grad_of(f, k, N, fk);
  fz_check_arr("d/du FD", du, fu, N, 1e-6);
  fz_check_arr("d/dk FD", dk, fk, N, 1e-6);
  return fz_finish();
}
