// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme users' C++ from its documentation and forums: a `std::vector<double>` passed by
// reference with `enzyme_dup, &v, &dv` (the shadow vector has the same size), a
// `const std::vector<Particle> &` of structs, a functor object (`operator()`) differentiated
// through a plain wrapper, a member function called on a duplicated object, and a
// `std::vector` the function resizes and fills from the input. Oracle: finite differences
// and analytic formulas.
#include "fz_cxx.h"
#include <numeric>
#include <vector>

double sumsq(std::vector<double> &v) {
  double s = 0;
  for (double e : v) s += e * e;
  return s;
}

struct Particle { double m, x, y; };
double kinetic(const std::vector<Particle> &ps) {
  double e = 0;
  for (const auto &p : ps) e += 0.5 * p.m * (p.x * p.x + p.y * p.y);
  return e;
}

struct Poly {
  double c[3];
  double operator()(double t) const { return c[0] + t * (c[1] + t * c[2]); }
};
double poly_at(const Poly &p, double t) { return p(t) * p(t); }

struct Spring {
  double k, rest;
  double energy(double a, double b) const {
    double d = b - a - rest;
    return 0.5 * k * d * d;
  }
};
double chain(const Spring *s, const double *pos, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) e += s->energy(pos[i], pos[i + 1]);
  return e;
}

double grow(const double *x, int n) {
  std::vector<double> w;
  for (int i = 0; i < n; i++) w.push_back(std::exp(x[i]));
  w.resize(2 * n, 0.5);
  for (int i = n; i < 2 * n; i++) w[i] *= x[i - n];
  return std::accumulate(w.begin(), w.end(), 0.0, [](double a, double b) { return a + b * b; });
}

int main() {
  std::vector<double> v = {0.5, -1.5, 2.0, 0.25}, dv(4, 0.0);
  __enzyme_autodiff<void>((void *)sumsq, enzyme_dup, &v, &dv);
  for (int i = 0; i < 4; i++) fz_check("vector& dv", dv[i], 2 * v[i], 1e-14);

  std::vector<Particle> ps = {{1.0, 0.5, -0.2}, {2.0, -1.0, 0.3}, {0.5, 0.7, 0.9}};
  std::vector<Particle> dps(3, Particle{0, 0, 0});
  __enzyme_autodiff<void>((void *)kinetic, enzyme_dup, &ps, &dps);
  for (int i = 0; i < 3; i++) {
    const Particle &p = ps[i];
    fz_check("particles dm", dps[i].m, 0.5 * (p.x * p.x + p.y * p.y), 1e-14);
    fz_check("particles dx", dps[i].x, p.m * p.x, 1e-14);
    fz_check("particles dy", dps[i].y, p.m * p.y, 1e-14);
  }

  Poly p = {{0.3, -0.8, 1.2}}, dp = {{0, 0, 0}};
  double t = 0.7;
  double dt = __enzyme_autodiff<double>((void *)poly_at, enzyme_dup, &p, &dp, t);
  double pv = p(t);
  fz_check("functor dt", dt, 2 * pv * (p.c[1] + 2 * t * p.c[2]), 1e-12);
  fz_check("functor dc0", dp.c[0], 2 * pv, 1e-12);
  fz_check("functor dc1", dp.c[1], 2 * pv * t, 1e-12);
  fz_check("functor dc2", dp.c[2], 2 * pv * t * t, 1e-12);

  Spring s = {3.0, 0.4}, ds = {0, 0};
  double pos[4] = {0.0, 0.5, 1.2, 1.5}, dpos[4] = {0};
  __enzyme_autodiff<void>((void *)chain, enzyme_dup, &s, &ds, enzyme_dup, pos, dpos,
                          enzyme_const, 4);
  auto fk = [&] { return chain(&s, pos, 4); };
  fz_check("spring dk", ds.k, fz_fd(fk, s.k), 1e-6);
  fz_check("spring drest", ds.rest, fz_fd(fk, s.rest), 1e-6);
  for (int i = 0; i < 4; i++) fz_check("spring dpos", dpos[i], fz_fd(fk, pos[i]), 1e-6);

  double x[3] = {0.2, -0.4, 0.9}, dx[3] = {0};
  __enzyme_autodiff<void>((void *)grow, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    fz_check("grow dx", dx[i], 2 * std::exp(2 * x[i]) + 2 * 0.25 * x[i], 1e-12);
  return fz_finish();
}
