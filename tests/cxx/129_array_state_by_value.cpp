// OPT: O0 O1 O2 O3
// Value-semantics simulation code: a `State` of two `std::array<double, 3>` (position,
// velocity) passed and returned *by value* through `noinline` helpers (`accel`, a
// velocity-Verlet `step` returning a new `State`, an `operator+` and scalar `operator*`
// on `Vec3`), a `std::pair<State, double>` returned from the integrator, and a final
// energy of the result. The differentiated function takes the initial position,
// velocity and the spring constant. Oracle: central finite differences, and the
// forward/reverse dot product.
#include "fz_cxx.h"
#include <array>
#include <utility>

using Vec3 = std::array<double, 3>;
struct State {
  Vec3 x, v;
};

__attribute__((noinline)) Vec3 operator+(Vec3 a, Vec3 b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
__attribute__((noinline)) Vec3 operator*(double s, Vec3 a) { return {s * a[0], s * a[1], s * a[2]}; }
__attribute__((noinline)) double dot(const Vec3 &a, const Vec3 &b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

__attribute__((noinline)) Vec3 accel(Vec3 x, double k) {
  double r2 = dot(x, x);
  return (-k / (1 + 0.1 * r2)) * x;
}

__attribute__((noinline)) State step(State s, double k, double dt) {
  Vec3 a0 = accel(s.x, k);
  State n;
  n.x = s.x + (dt * s.v + (0.5 * dt * dt) * a0);
  Vec3 a1 = accel(n.x, k);
  n.v = s.v + (0.5 * dt) * (a0 + a1);
  return n;
}

__attribute__((noinline)) std::pair<State, double> integrate(State s, double k, int n) {
  double work = 0;
  for (int i = 0; i < n; i++) {
    State t = step(s, k, 0.05);
    work += dot(t.v, t.v) - dot(s.v, s.v);
    s = t;
  }
  return {s, work};
}

double energy(const double *x0, const double *v0, double k) {
  State s{{x0[0], x0[1], x0[2]}, {v0[0], v0[1], v0[2]}};
  std::pair<State, double> r = integrate(s, k, 40);
  const State &e = r.first;
  return 0.5 * dot(e.v, e.v) + 0.5 * k * dot(e.x, e.x) + 0.01 * r.second;
}

int main() {
  double x0[3] = {0.5, -0.2, 0.3}, v0[3] = {0.1, 0.4, -0.3}, k = 2.0;
  double dx[3] = {0}, dv[3] = {0};
  double dk = __enzyme_autodiff<double>((void *)energy, enzyme_dup, x0, dx, enzyme_dup, v0, dv,
                                        enzyme_out, k);
  double fdx[3], fdv[3];
  fz_fd_grad_of([&] { return energy(x0, v0, k); }, x0, 3, fdx);
  fz_fd_grad_of([&] { return energy(x0, v0, k); }, v0, 3, fdv);
  fz_check_arr("dE/dx0", dx, fdx, 3, 1e-6);
  fz_check_arr("dE/dv0", dv, fdv, 3, 1e-6);
  fz_check("dE/dk", dk, fz_fd([&] { return energy(x0, v0, k); }, k), 1e-6);
  // forward mode along (u, w, 1): equals <grad, (u, w, 1)>
  double u[3] = {0.3, -0.7, 0.2}, w[3] = {1.0, 0.5, -0.4};
  double jv = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x0, u, enzyme_dup, v0, w, k, 1.0);
  double want = dk;
  for (int i = 0; i < 3; i++) want += dx[i] * u[i] + dv[i] * w[i];
  fz_check("forward . v == grad . v", jv, want, 1e-10);
  return fz_finish();
}
