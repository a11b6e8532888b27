// OPT: O0 O2 O3
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// A point cloud as `std::vector<Eigen::Vector3d>` built inside the differentiated
// function from a raw array (push_back growth, range-for by const reference): the
// centroid, the spread about it, a cross-product area term of consecutive points and
// the inertia tensor's trace through `Vector3d::dot`/`cross`/`squaredNorm`/`normalized`.
// Oracle: central differences of every coordinate, and the analytic gradient of the
// spread alone (2 (p_i - c)).
#include "fz_cxx.h"
#include <Eigen/Dense>
#include <vector>

constexpr int N = 5;

double cloud_energy(const double *xyz, int n) {
  std::vector<Eigen::Vector3d> pts;
  for (int i = 0; i < n; i++) pts.push_back(Eigen::Vector3d(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]));
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const auto &p : pts) c += p;
  c /= double(n);
  double spread = 0, area = 0, bend = 0;
  for (const auto &p : pts) spread += (p - c).squaredNorm();
  for (int i = 0; i + 1 < n; i++) area += 0.5 * pts[i].cross(pts[i + 1]).norm();
  for (int i = 0; i + 2 < n; i++) {
    Eigen::Vector3d u = (pts[i + 1] - pts[i]).normalized(), v = (pts[i + 2] - pts[i + 1]).normalized();
    bend += 1.0 - u.dot(v);
  }
  return spread + 0.3 * area + 0.7 * bend;
}

double spread_only(const double *xyz, int n) {
  std::vector<Eigen::Vector3d> pts(n);
  for (int i = 0; i < n; i++) pts[i] = Eigen::Map<const Eigen::Vector3d>(xyz + 3 * i);
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (const auto &p : pts) c += p;
  c /= double(n);
  double s = 0;
  for (const auto &p : pts) s += (p - c).squaredNorm();
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  double x[3 * N], dx[3 * N] = {0}, ds[3 * N] = {0}, fd[3 * N];
  for (int i = 0; i < 3 * N; i++) x[i] = std::sin(1.7 * i + 0.3) + 0.1 * i;
  __enzyme_autodiff<void>((void *)cloud_energy, enzyme_dup, x, dx, enzyme_const, N);
  fz_fd_grad_of([&] { return cloud_energy(x, N); }, x, 3 * N, fd);
  fz_check_arr("energy vs finite differences", dx, fd, 3 * N, 1e-6);
  __enzyme_autodiff<void>((void *)spread_only, enzyme_dup, x, ds, enzyme_const, N);
  for (int k = 0; k < 3; k++) {
    double c = 0;
    for (int i = 0; i < N; i++) c += x[3 * i + k] / N;
    for (int i = 0; i < N; i++) fz_check("spread analytic", ds[3 * i + k], 2 * (x[3 * i + k] - c), 1e-12);
  }
  return fz_finish();
}
