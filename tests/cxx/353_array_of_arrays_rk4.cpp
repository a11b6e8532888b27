// OPT: O0 O2 O3
// CFLAGS: -std=c++17
// `std::array<std::array<double, 3>, 4>` as a Runge-Kutta tableau of stage derivatives
// and a 3x3 `std::array` of arrays as a linear ODE's matrix, both passed and returned by
// value through helpers (structured bindings, range-for over rows, `std::array::fill`):
// ten RK4 steps of y' = A(theta) y. Oracle: central differences of theta and y0.
#include "fz_cxx.h"
#include <array>
#include <cmath>

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

static Vec3 mul(const Mat3 &A, const Vec3 &y) {
  Vec3 r;
  r.fill(0.0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r[i] += A[i][j] * y[j];
  return r;
}

static Vec3 axpy(const Vec3 &y, double h, const Vec3 &k) {
  Vec3 r{};
  for (int i = 0; i < 3; i++) r[i] = y[i] + h * k[i];
  return r;
}

double simulate(const double *theta, const double *y0) {
  Mat3 A{{{-theta[0], theta[1], 0.0}, {0.0, -theta[1], theta[2]}, {theta[0], 0.0, -theta[2]}}};
  Vec3 y{y0[0], y0[1], y0[2]};
  const double h = 0.1;
  for (int step = 0; step < 10; step++) {
    std::array<Vec3, 4> k;
    k[0] = mul(A, y);
    k[1] = mul(A, axpy(y, h / 2, k[0]));
    k[2] = mul(A, axpy(y, h / 2, k[1]));
    k[3] = mul(A, axpy(y, h, k[2]));
    for (int i = 0; i < 3; i++) y[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
  }
  auto [a, b, c] = y;
  double s = 0;
  for (const auto &row : A) s += row[0] * row[0];
  return a * a + 2 * b + std::sin(c) + 0.1 * s;
}

extern int enzyme_dup;

int main() {
  double th[3] = {0.7, 1.1, 0.4}, y0[3] = {1.0, 0.5, -0.3}, dth[3] = {0}, dy[3] = {0}, fd[3];
  __enzyme_autodiff<void>((void *)simulate, enzyme_dup, th, dth, enzyme_dup, y0, dy);
  fz_fd_grad_of([&] { return simulate(th, y0); }, th, 3, fd);
  fz_check_arr("d/dtheta finite differences", dth, fd, 3, 1e-6);
  fz_fd_grad_of([&] { return simulate(th, y0); }, y0, 3, fd);
  fz_check_arr("d/dy0 finite differences", dy, fd, 3, 1e-6);
  return fz_finish();
}
