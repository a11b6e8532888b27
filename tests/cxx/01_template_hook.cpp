// OPT: O0 O1 O2 O3
// C++: the hook declared as a function template (Enzyme's C++ idiom), called with a
// std::vector's data; the call is an `invoke` because main has cleanups (the vectors'
// destructors). Oracle: analytic.
#include <vector>
#include "../c/fz_test.h"

template <typename RT, typename... Args> RT __enzyme_autodiff(void *, Args...);

struct Particle { double x, v; };

double energy(const Particle *p, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; i++) e += 0.5 * p[i].v * p[i].v + 0.5 * k * p[i].x * p[i].x;
  return e;
}

int main() {
  fz_seed(101);
  const int n = 7;
  std::vector<Particle> ps(n), dps(n, Particle{0, 0});
  for (auto &p : ps) p = Particle{fz_uniform(-1, 1), fz_uniform(-1, 1)};
  double k = fz_uniform(0.5, 2);
  double dk = __enzyme_autodiff<double>((void *)energy, enzyme_dup, ps.data(), dps.data(), enzyme_const, n,
                                        enzyme_out, k);
  double wantk = 0;
  for (auto &p : ps) wantk += 0.5 * p.x * p.x;
  fz_check("dk", dk, wantk, 1e-12);
  for (int i = 0; i < n; i++) {
    fz_check("dx", dps[i].x, k * ps[i].x, 1e-12);
    fz_check("dv", dps[i].v, ps[i].v, 1e-12);
  }
  return fz_finish();
}
