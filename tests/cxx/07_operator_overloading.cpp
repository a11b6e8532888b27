// OPT: O0 O2
// CFLAGS: -std=c++17
// Operator overloading: a 3-vector with + - * / (scalar), unary minus, compound
// assignment, dot and cross as operators, comparison (to pick a branch), and a small
// 3x3 matrix type whose operator() indexes and operator* multiplies. Oracles: finite
// differences.
#include "fz_cxx.h"
#include <cmath>

struct V3 {
  double x, y, z;
  V3 operator+(const V3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  V3 operator-(const V3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  V3 operator-() const { return {-x, -y, -z}; }
  V3 operator*(double s) const { return {x * s, y * s, z * s}; }
  V3 operator/(double s) const { return {x / s, y / s, z / s}; }
  V3 &operator+=(const V3 &o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  double operator|(const V3 &o) const { return x * o.x + y * o.y + z * o.z; }  // dot
  V3 operator^(const V3 &o) const {                                              // cross
    return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x};
  }
  bool operator<(const V3 &o) const { return (*this | *this) < (o | o); }
};
V3 operator*(double s, const V3 &v) { return v * s; }

struct M3 {
  double a[9];
  double &operator()(int i, int j) { return a[3 * i + j]; }
  double operator()(int i, int j) const { return a[3 * i + j]; }
  V3 operator*(const V3 &v) const {
    return {a[0] * v.x + a[1] * v.y + a[2] * v.z, a[3] * v.x + a[4] * v.y + a[5] * v.z,
            a[6] * v.x + a[7] * v.y + a[8] * v.z};
  }
};

double torque_energy(const double *p, const double *m) {
  V3 r{p[0], p[1], p[2]}, f{p[3], p[4], p[5]};
  M3 M;
  for (int i = 0; i < 9; i++) M.a[i] = m[i];
  V3 t = r ^ f;
  V3 acc{0, 0, 0};
  acc += M * t;
  acc += -(2.0 * r) / 3.0;
  double e = acc | acc;
  if (r < f) e += M(0, 1) * (f | f);
  else e -= M(1, 0) * (r | r);
  return std::sqrt(e + 1.0);
}

int main() {
  fz_seed(307);
  double p[6], dp[6], m[9], dm[9], fd[9];
  fz_fill(p, 6, -1, 1);
  fz_fill(m, 9, -1, 1);
  fz_zero(dp, 6);
  fz_zero(dm, 9);
  __enzyme_autodiff((void *)torque_energy, enzyme_dup, p, dp, enzyme_dup, m, dm);
  auto f = [&] { return torque_energy(p, m); };
  fz_fd_grad_of(f, p, 6, fd);
  fz_check_arr("dp", dp, fd, 6, 1e-6);
  fz_fd_grad_of(f, m, 9, fd);
  fz_check_arr("dm", dm, fd, 9, 1e-6);
  return fz_finish();
}
