// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A user's rigid-body energy in modern C++ value types: a `Vec3` class with overloaded
// operators and `constexpr` members, `std::array<double, 3>` rows in a
// `std::vector<std::array<double, 3>>`, a function returning `std::tuple` unpacked with
// structured bindings, `std::transform` with `std::plus<>` and `std::multiplies<>`,
// range-for over a `std::vector` of structs, `std::min`/`std::max` of active values, a
// quaternion rotation written as a small class template over the scalar type. Oracles:
// central finite differences of the primal, forward vs reverse (dot product).
#include "fz_cxx.h"
#include <array>
#include <functional>
#include <numeric>
#include <tuple>
#include <vector>

struct Vec3 {
  double x, y, z;
  constexpr Vec3(double a = 0, double b = 0, double c = 0) : x(a), y(b), z(c) {}
  constexpr Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  constexpr Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  constexpr Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  constexpr double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 cross(const Vec3 &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
  double norm() const { return std::sqrt(dot(*this)); }
};

template <typename T>
struct Quat {
  T w, x, y, z;
  Quat normalized() const {
    T n = std::sqrt(w * w + x * x + y * y + z * z);
    return {w / n, x / n, y / n, z / n};
  }
  Vec3 rotate(const Vec3 &v) const {
    Vec3 q{x, y, z};
    Vec3 t = q.cross(v) * 2.0;
    return v + t * w + q.cross(t);
  }
};

struct Body { Vec3 p; double m; };

static std::tuple<double, Vec3, double> moments(const std::vector<Body> &bs) {
  double M = 0, I = 0;
  Vec3 c;
  for (const auto &b : bs) {
    M += b.m;
    c = c + b.p * b.m;
  }
  c = c * (1.0 / M);
  for (const auto &b : bs) I += b.m * (b.p - c).dot(b.p - c);
  return {M, c, I};
}

// q: quaternion (4), pts: 3 * n positions as std::array rows
double energy(const double *q, const double *pts, const double *mass, int n) {
  Quat<double> r = Quat<double>{q[0], q[1], q[2], q[3]}.normalized();
  std::vector<std::array<double, 3>> rows(n);
  for (int i = 0; i < n; i++) rows[i] = {pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]};
  std::vector<Body> bs;
  for (int i = 0; i < n; i++) {
    const auto &a = rows[i];
    bs.push_back({r.rotate(Vec3{a[0], a[1], a[2]}), mass[i]});
  }
  auto [M, c, I] = moments(bs);
  std::vector<double> zs(n), ws(n);
  for (int i = 0; i < n; i++) zs[i] = bs[i].p.z;
  std::transform(zs.begin(), zs.end(), mass, ws.begin(), std::multiplies<>());
  double pot = std::accumulate(ws.begin(), ws.end(), 0.0, std::plus<>());
  double lo = zs[0], hi = zs[0];
  for (double z : zs) {
    lo = std::min(lo, z);
    hi = std::max(hi, z);
  }
  return 9.81 * pot + 0.5 * I / M + c.norm() + 0.1 * (hi - lo);
}

int main() {
  const int n = 4;
  double q[4] = {0.9, 0.2, -0.3, 0.1}, dq[4] = {0};
  double pts[3 * n] = {0.1, 0.2, 0.3, -0.5, 0.4, 0.0, 0.7, -0.2, 0.5, 0.0, 0.9, -0.6};
  double dpts[3 * n] = {0};
  double mass[n] = {1.0, 2.0, 0.5, 1.5};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, q, dq, enzyme_dup, pts, dpts,
                          enzyme_const, mass, enzyme_const, n);
  for (int i = 0; i < 4; i++)
    fz_check("energy d/dq", dq[i], fz_fd([&] { return energy(q, pts, mass, n); }, q[i]), 1e-6);
  for (int i = 0; i < 3 * n; i++)
    fz_check("energy d/dpts", dpts[i], fz_fd([&] { return energy(q, pts, mass, n); }, pts[i]),
             1e-6);
  double vq[4] = {0.3, -0.2, 0.5, 0.1}, vp[3 * n], want = 0;
  for (int i = 0; i < 3 * n; i++) vp[i] = 0.1 * (i % 5) - 0.2;
  for (int i = 0; i < 4; i++) want += dq[i] * vq[i];
  for (int i = 0; i < 3 * n; i++) want += dpts[i] * vp[i];
  double jv = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, q, vq, enzyme_dup, pts, vp,
                                       enzyme_const, mass, enzyme_const, n);
  fz_check("energy forward = <grad, v>", jv, want, 1e-10);
  return fz_finish();
}
