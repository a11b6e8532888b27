// OPT: O0 O1 O2 O3
// probe41: the shape of Enzyme's Sparse integration tests (ring of springs, 3-D points,
// rest lengths) written densely as C++ users write it: std::vector of edge structs,
// std::array<double, 3> points, a templated norm, a virtual energy term added through a
// base pointer; gradient (reverse), Hessian-vector products by forward over reverse
// through a wrapper, checked against central differences of the energy and of the
// gradient, and the Hessian's symmetry u.(H v) = v.(H u).
#include <array>
#include <cmath>
#include <memory>
#include <vector>
#include "fz_cxx.h"

using P3 = std::array<double, 3>;
struct Edge { int a, b; double rest, k; };

template <typename T, size_t K>
T norm(const std::array<T, K> &v) {
  T s = 0;
  for (size_t i = 0; i < K; i++) s += v[i] * v[i];
  return std::sqrt(s);
}

struct Term {
  virtual ~Term() = default;
  virtual double energy(const P3 *x, int n) const = 0;
};
struct Gravity : Term {
  double g;
  explicit Gravity(double g) : g(g) {}
  double energy(const P3 *x, int n) const override {
    double e = 0;
    for (int i = 0; i < n; i++) e += g * x[i][2];
    return e;
  }
};
struct Anchor : Term {
  int idx;
  P3 at;
  Anchor(int i, P3 p) : idx(i), at(p) {}
  double energy(const P3 *x, int) const override {
    P3 d{x[idx][0] - at[0], x[idx][1] - at[1], x[idx][2] - at[2]};
    return 10 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  }
};

struct Model {
  std::vector<Edge> edges;
  std::vector<std::unique_ptr<Term>> terms;
};

__attribute__((noinline)) double energy(const double *flat, const Model *m, int n) {
  const P3 *x = reinterpret_cast<const P3 *>(flat);
  double e = 0;
  for (const Edge &ed : m->edges) {
    P3 d{x[ed.b][0] - x[ed.a][0], x[ed.b][1] - x[ed.a][1], x[ed.b][2] - x[ed.a][2]};
    double l = norm(d) - ed.rest;
    e += 0.5 * ed.k * l * l;
  }
  for (const auto &t : m->terms) e += t->energy(x, n);
  return e;
}

void gradient(const double *x, double *g, const Model *m, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, m, enzyme_const, n);
}

int main() {
  const int n = 6;
  Model m;
  for (int i = 0; i < n; i++) m.edges.push_back({i, (i + 1) % n, 0.9 + 0.05 * i, 1.0 + 0.2 * i});
  m.edges.push_back({0, 3, 1.5, 0.7});
  m.terms.push_back(std::make_unique<Gravity>(0.3));
  m.terms.push_back(std::make_unique<Anchor>(2, P3{0.1, 0.2, 0.3}));
  std::vector<double> x(3 * n), g(3 * n, 0.0);
  for (int i = 0; i < n; i++) {
    x[3 * i] = std::cos(2 * M_PI * i / n) + 0.01 * i;
    x[3 * i + 1] = std::sin(2 * M_PI * i / n);
    x[3 * i + 2] = 0.1 * (i % 3) - 0.05;
  }
  gradient(x.data(), g.data(), &m, n);
  auto E = [&] { return energy(x.data(), &m, n); };
  for (int i = 0; i < 3 * n; i++) fz_check("grad", g[i], fz_fd(E, x[i]), 1e-6);

  std::vector<double> u(3 * n), v(3 * n), Hu(3 * n, 0.0), Hv(3 * n, 0.0), g2(3 * n, 0.0);
  for (int i = 0; i < 3 * n; i++) { u[i] = std::sin(1.0 + i); v[i] = std::cos(0.5 * i); }
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, x.data(), v.data(), enzyme_dup, g2.data(), Hv.data(),
                         enzyme_const, &m, enzyme_const, n);
  std::fill(g2.begin(), g2.end(), 0.0);
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, x.data(), u.data(), enzyme_dup, g2.data(), Hu.data(),
                         enzyme_const, &m, enzyme_const, n);
  for (int i = 0; i < 3 * n; i++) fz_check("fwd-over-rev gradient", g2[i], g[i], 1e-12);
  double uHv = 0, vHu = 0;
  for (int i = 0; i < 3 * n; i++) { uHv += u[i] * Hv[i]; vHu += v[i] * Hu[i]; }
  fz_check("hessian symmetry", uHv, vHu, 1e-10);
  // H v by central differences of the gradient along v
  std::vector<double> xp(x), xm(x), gp(3 * n, 0.0), gm(3 * n, 0.0);
  const double h = 1e-6;
  for (int i = 0; i < 3 * n; i++) { xp[i] += h * v[i]; xm[i] -= h * v[i]; }
  gradient(xp.data(), gp.data(), &m, n);
  gradient(xm.data(), gm.data(), &m, n);
  for (int i = 0; i < 3 * n; i++) fz_check("Hv vs FD of grad", Hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  return fz_finish();
}
