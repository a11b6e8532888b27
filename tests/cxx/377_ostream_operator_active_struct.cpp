// OPT: O0 O2
// CFLAGS: -std=c++17
// A user's `operator<<(std::ostream &, const Particle &)` printing active fields from
// inside the differentiated function, to a `std::ostream &` the caller passes in
// (`enzyme_const`: a `std::ostringstream`) and to `std::cout`. The derivative must be
// unchanged by the printing, and the text the differentiated call writes must be the
// primal's, character for character (compared with a plain call's text). Oracle: the
// analytic gradient, central finite differences, the primal's text.
#include "fz_cxx.h"
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

struct Particle {
  double x, v;
};

std::ostream &operator<<(std::ostream &os, const Particle &p) {
  return os << "(x=" << std::setprecision(6) << p.x << ", v=" << p.v << ")";
}

double advance(Particle *ps, int n, std::ostream &log) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    Particle &p = ps[i];
    p.v -= 0.1 * std::sin(p.x);
    p.x += 0.1 * p.v;
    log << "particle " << i << ' ' << p << '\n';
    e += 0.5 * p.v * p.v + (1 - std::cos(p.x));
  }
  std::cout << "energy " << std::fixed << std::setprecision(4) << e << std::endl;
  std::cout.unsetf(std::ios::fixed);
  return e;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 3;
  Particle ps[n] = {{0.3, 0.5}, {-0.8, 0.2}, {1.2, -0.4}}, dps[n] = {};
  Particle ref[n] = {{0.3, 0.5}, {-0.8, 0.2}, {1.2, -0.4}};
  std::ostringstream primal_text, ad_text;
  advance(ref, n, primal_text);
  __enzyme_autodiff<void>((void *)advance, enzyme_dup, ps, dps, enzyme_const, n,
                          enzyme_const, (std::ostream *)&ad_text);
  fz_check("the differentiated call prints the primal's text",
           ad_text.str() == primal_text.str() ? 1.0 : 0.0, 1.0, 0);
  fz_check("the text is not empty", primal_text.str().size() > 40 ? 1.0 : 0.0, 1.0, 0);
  for (int i = 0; i < n; i++) {  // the differentiated call updated ps like the primal
    fz_check("x after the call", ps[i].x, ref[i].x, 1e-15);
    fz_check("v after the call", ps[i].v, ref[i].v, 1e-15);
  }
  // analytic, per particle (x0, v0): v1 = v0 - 0.1 sin x0, x1 = x0 + 0.1 v1,
  // e = 0.5 v1^2 + 1 - cos x1
  Particle start[n] = {{0.3, 0.5}, {-0.8, 0.2}, {1.2, -0.4}};
  for (int i = 0; i < n; i++) {
    double x0 = start[i].x, v0 = start[i].v;
    double v1 = v0 - 0.1 * std::sin(x0), x1 = x0 + 0.1 * v1;
    double de_dv1 = v1 + 0.1 * std::sin(x1), de_dx1 = std::sin(x1);
    double want_dv0 = de_dv1, want_dx0 = de_dx1 + de_dv1 * (-0.1 * std::cos(x0));
    fz_check("d/dx0 analytic", dps[i].x, want_dx0, 1e-12);
    fz_check("d/dv0 analytic", dps[i].v, want_dv0, 1e-12);
    std::ostringstream sink;
    auto f = [&] {
      Particle q[n] = {start[0], start[1], start[2]};
      return advance(q, n, sink);
    };
    fz_check("d/dx0 finite differences", dps[i].x, fz_fd(f, start[i].x), 1e-6);
    fz_check("d/dv0 finite differences", dps[i].v, fz_fd(f, start[i].v), 1e-6);
  }
  return fz_finish();
}
