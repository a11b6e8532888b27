// OPT: O0 O2
// CFLAGS: -std=c++17
// A std::vector of structs with member functions passed by const reference (its shadow
// is a second vector of the same size), iterated with iterators and indices, and a
// reference member function returning a field. Oracle: finite differences.
#include "fz_cxx.h"
#include <vector>
#include <cmath>

struct Particle {
  double x, y, m;
  double r2() const { return x * x + y * y; }
  const double &mass() const { return m; }
};

double potential(const std::vector<Particle> &ps) {
  double e = 0;
  for (auto it = ps.begin(); it != ps.end(); ++it) e += it->mass() * it->r2();
  for (size_t i = 0; i + 1 < ps.size(); i++) {
    double dx = ps[i].x - ps[i + 1].x, dy = ps[i].y - ps[i + 1].y;
    e += ps[i].m * ps[i + 1].m / std::sqrt(dx * dx + dy * dy + 0.1);
  }
  return e;
}

int main() {
  fz_seed(324);
  const int n = 5;
  std::vector<Particle> ps(n), dps(n, Particle{0, 0, 0});
  for (auto &p : ps) p = Particle{fz_uniform(-1, 1), fz_uniform(-1, 1), fz_uniform(0.5, 2)};
  __enzyme_autodiff((void *)potential, enzyme_dup, &ps, &dps);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return potential(ps); };
    fz_check("dx", dps[i].x, fz_fd(f, ps[i].x), 1e-6);
    fz_check("dy", dps[i].y, fz_fd(f, ps[i].y), 1e-6);
    fz_check("dm", dps[i].m, fz_fd(f, ps[i].m), 1e-6);
  }
  return fz_finish();
}
