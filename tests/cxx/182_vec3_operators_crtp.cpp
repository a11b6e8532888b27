// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A user's own small vector class (sweep20): `Vec3<T>` with overloaded `+ - * / +=`,
// `dot`, `cross`, `norm`, a CRTP base providing `energy()` for two potentials that
// implement `pair(r)`, `if constexpr` choosing a float or double path, and a template
// instantiated for `float` and `double`. The function: the total energy of a small
// cluster plus a torque-like term. Oracles: finite differences per coordinate, the
// analytic force of the Lennard-Jones pair for two atoms, and the dot-product identity.
#include "fz_cxx.h"
#include <cmath>
#include <type_traits>

template <typename T>
struct Vec3 {
  T x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
  Vec3 operator/(T s) const { return {x / s, y / s, z / s}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x, y += o.y, z += o.z;
    return *this;
  }
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 cross(const Vec3 &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
  T norm() const {
    if constexpr (std::is_same_v<T, float>)
      return std::sqrt(dot(*this));
    else
      return std::hypot(x, y, z);
  }
};

template <typename D, typename T>
struct Potential {
  T energy(const Vec3<T> *p, int n) const {
    T e = 0;
    Vec3<T> c{0, 0, 0};
    for (int i = 0; i < n; i++) c += p[i];
    c = c / T(n);
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) e += static_cast<const D *>(this)->pair((p[i] - p[j]).norm());
      e += T(0.01) * (p[i] - c).cross(p[(i + 1) % n] - c).norm();
    }
    return e;
  }
};
template <typename T>
struct LJ : Potential<LJ<T>, T> {
  T pair(T r) const {
    T s6 = std::pow(T(1) / r, 6);
    return 4 * (s6 * s6 - s6);
  }
};
template <typename T>
struct Soft : Potential<Soft<T>, T> {
  T pair(T r) const { return std::exp(-r) / r; }
};

template <typename T>
T cluster(const T *xyz, int n) {
  const Vec3<T> *p = reinterpret_cast<const Vec3<T> *>(xyz);
  return LJ<T>{}.energy(p, n) + T(0.5) * Soft<T>{}.energy(p, n);
}
template <typename T>
T lj2(const T *xyz) {
  const Vec3<T> *p = reinterpret_cast<const Vec3<T> *>(xyz);
  return LJ<T>{}.pair((p[0] - p[1]).norm());
}

int main() {
  const int n = 4;
  double x[3 * n] = {0, 0, 0, 1.1, 0.1, 0, 0.2, 1.05, 0.1, 0.5, 0.4, 1.0}, g[3 * n] = {0};
  __enzyme_autodiff<void>((void *)cluster<double>, enzyme_dup, x, g, enzyme_const, n);
  for (int i = 0; i < 3 * n; i++) {
    auto f = [&]() { return cluster<double>(x, n); };
    fz_check("cluster gradient vs FD", g[i], fz_fd(f, x[i]), 1e-5);
  }
  double t[3 * n];
  fz_seed(182);
  fz_fill(t, 3 * n, -1, 1);
  double d = __enzyme_fwddiff<double>((void *)cluster<double>, enzyme_dup, x, t, enzyme_const, n);
  double dot = 0;
  for (int i = 0; i < 3 * n; i++) dot += t[i] * g[i];
  fz_check("forward = <t, gradient>", d, dot, 1e-10);
  // Two atoms: dE/dr = 4 (-12 r^-13 + 6 r^-7), along the separation.
  double two[6] = {0.1, 0.2, 0.3, 1.0, 0.9, 0.7}, g2[6] = {0};
  __enzyme_autodiff<void>((void *)lj2<double>, enzyme_dup, two, g2);
  double dx = two[0] - two[3], dy = two[1] - two[4], dz = two[2] - two[5];
  double r = std::sqrt(dx * dx + dy * dy + dz * dz);
  double dEdr = 4 * (-12 * std::pow(r, -13) + 6 * std::pow(r, -7));
  fz_check("LJ force x", g2[0], dEdr * dx / r, 1e-11);
  fz_check("LJ force -x", g2[3], -dEdr * dx / r, 1e-11);
  fz_check("LJ force z", g2[2], dEdr * dz / r, 1e-11);
  // float instantiation against the double one.
  float xf[3 * n], gf[3 * n] = {0};
  for (int i = 0; i < 3 * n; i++) xf[i] = (float)x[i];
  __enzyme_autodiff<void>((void *)cluster<float>, enzyme_dup, xf, gf, enzyme_const, n);
  for (int i = 0; i < 3 * n; i++) fz_check("float instance vs double", gf[i], g[i], 2e-3);
  return fz_finish();
}
