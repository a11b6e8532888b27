// OPT: O0 O2
// CFLAGS: -std=c++20
// A user's fixed-size linear algebra: `template <std::size_t N, std::size_t M> struct Matrix`
// holding `std::array<std::array<double, M>, N>`, with `constexpr` sizes, `operator*`
// (matrix product and matrix-vector) and `transpose()` returning new matrices by value, and
// a rotation `std::array<std::array<double, 3>, 3>` built and returned by value. The model is
// a Gauss-Newton-like quadratic form r^T (J^T J) r of a 4x3 Jacobian J that depends on the
// parameters, after a rotation by an angle p[0].
// Oracle: the same formula written with plain loops on doubles, differentiated by central
// differences; the analytic derivative of the rotation part; forward/reverse dot products.
#include "fz_cxx.h"
#include <array>
#include <cmath>
#include <cstddef>

template <std::size_t N, std::size_t M>
struct Matrix {
  static constexpr std::size_t rows = N, cols = M;
  std::array<std::array<double, M>, N> a{};

  constexpr double &operator()(std::size_t i, std::size_t j) { return a[i][j]; }
  constexpr double operator()(std::size_t i, std::size_t j) const { return a[i][j]; }

  constexpr Matrix<M, N> transpose() const {
    Matrix<M, N> t;
    for (std::size_t i = 0; i < N; i++)
      for (std::size_t j = 0; j < M; j++) t(j, i) = a[i][j];
    return t;
  }
};

template <std::size_t N, std::size_t K, std::size_t M>
constexpr Matrix<N, M> operator*(const Matrix<N, K> &x, const Matrix<K, M> &y) {
  Matrix<N, M> z;
  for (std::size_t i = 0; i < N; i++)
    for (std::size_t j = 0; j < M; j++) {
      double s = 0;
      for (std::size_t k = 0; k < K; k++) s += x(i, k) * y(k, j);
      z(i, j) = s;
    }
  return z;
}

template <std::size_t N>
using Vec = Matrix<N, 1>;

static_assert(decltype(Matrix<4, 3>{}.transpose())::rows == 3);

using Mat3 = std::array<std::array<double, 3>, 3>;

Mat3 rotation_z(double t) {
  double c = std::cos(t), s = std::sin(t);
  return Mat3{{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}};
}

double model(const double *p) {
  Mat3 r = rotation_z(p[0]);
  Vec<3> v;
  for (std::size_t i = 0; i < 3; i++) {
    double s = 0;
    for (std::size_t k = 0; k < 3; k++) s += r[i][k] * p[1 + k];
    v(i, 0) = s;
  }
  Matrix<4, 3> J;
  for (std::size_t i = 0; i < 4; i++)
    for (std::size_t j = 0; j < 3; j++) J(i, j) = std::sin(0.3 * double(i + 1) * v(j, 0) + double(j));
  Matrix<3, 3> JtJ = J.transpose() * J;
  Vec<3> w = JtJ * v;
  return (v.transpose() * w)(0, 0) + p[4] * v(0, 0);
}

// The same model with plain loops: the finite-difference oracle never runs the templates.
double model_loops(const double *p) {
  double c = std::cos(p[0]), s = std::sin(p[0]);
  double v[3] = {c * p[1] - s * p[2], s * p[1] + c * p[2], p[3]};
  double J[4][3], G[3][3] = {}, q = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++) J[i][j] = std::sin(0.3 * (i + 1) * v[j] + j);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      for (int i = 0; i < 4; i++) G[a][b] += J[i][a] * J[i][b];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) q += v[a] * G[a][b] * v[b];
  return q + p[4] * v[0];
}

extern int enzyme_dup;

int main() {
  const int n = 5;
  double p[n] = {0.4, 0.7, -0.5, 0.9, 1.3}, dp[n] = {0}, fd[n];
  fz_check("primal matches the loops", model(p), model_loops(p), 1e-13);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return model_loops(p); }, p, n, fd);
  fz_check_arr("d/dp finite differences of the loop version", dp, fd, n, 1e-6);
  // d/dp4 = v0 = cos(p0) p1 - sin(p0) p2, analytic
  fz_check("d/dp4 analytic", dp[4], std::cos(p[0]) * p[1] - std::sin(p[0]) * p[2], 1e-13);
  double v[n] = {0.2, -0.6, 0.3, 0.5, -0.1}, dv = 0;
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, p, v);
  for (int i = 0; i < n; i++) dv += dp[i] * v[i];
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  return fz_finish();
}
