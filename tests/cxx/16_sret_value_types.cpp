// OPT: O0 O2 O3
// CFLAGS: -std=c++17
// Small value types returned through a hidden return slot (sret): a 4-double struct
// returned by value, a function that forwards its slot to another (`return make(...)`,
// the callee writes straight into the caller's slot), chained and nested returns, and
// a struct with a double and an int. Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

struct Quat {
  double w, x, y, z;
};
struct Tagged {
  double v;
  int tag;
  double extra[3];
};

__attribute__((noinline)) Quat make(double a, double b, double c) {
  return {std::cos(a), std::sin(a) * b, std::sin(a) * c, b * c};
}
// Forwards its return slot to make().
__attribute__((noinline)) Quat forward_make(double a, double b, double c) { return make(a, b, c); }

__attribute__((noinline)) Quat mul(const Quat &p, const Quat &q) {
  return {p.w * q.w - p.x * q.x - p.y * q.y - p.z * q.z, p.w * q.x + p.x * q.w + p.y * q.z - p.z * q.y,
          p.w * q.y - p.x * q.z + p.y * q.w + p.z * q.x, p.w * q.z + p.x * q.y - p.y * q.x + p.z * q.w};
}

__attribute__((noinline)) Tagged tag(const Quat &q, int t) {
  Tagged r{q.w * q.x + q.y, t, {q.z, q.z * q.z, q.w}};
  return r;
}

double energy(const double *p) {
  Quat a = forward_make(p[0], p[1], p[2]);
  Quat b = mul(a, make(p[3], p[0], p[1]));
  Tagged t = tag(mul(b, forward_make(p[2], p[3], 0.5)), 3);
  return t.v * t.tag + t.extra[0] + t.extra[1] * t.extra[2] + b.w * b.z;
}

int main() {
  fz_seed(316);
  double p[4], dp[4], fd[4];
  fz_fill(p, 4, -1, 1);
  fz_zero(dp, 4);
  __enzyme_autodiff((void *)energy, enzyme_dup, p, dp);
  fz_fd_grad_of([&] { return energy(p); }, p, 4, fd);
  fz_check_arr("dp", dp, fd, 4, 1e-6);
  return fz_finish();
}
