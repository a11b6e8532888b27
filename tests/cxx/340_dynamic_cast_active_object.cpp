// OPT: O0 O1 O2
// CFLAGS: -std=c++17
// `dynamic_cast` of objects holding active values inside the differentiated function:
// a down-cast that succeeds, one that fails (null, the other branch taken), a cross-cast
// to a second base (the result is the object plus a non-zero offset, so the shadow
// must be offset alike) and a reference cast. `__dynamic_cast` goes through Ferrozyme's
// definition (libdefs/dynamic_cast.c: the cast runs on the primal object, the shadow is
// the argument's shadow plus the same offset), in reverse and forward mode. Oracle: the analytic gradient
// E = a sin f + a f + a^2 f + f^2 + c^2 + c, and central differences.
#include "fz_cxx.h"
#include <cmath>

struct Base {
  virtual ~Base() = default;
  virtual double f() const = 0;
};
struct Tag {
  virtual ~Tag() = default;
  double weight = 0;
};
struct Wave : Base, Tag {
  double amp, freq;
  Wave(double a, double w) : amp(a), freq(w) { weight = a * a; }
  double f() const override { return amp * std::sin(freq); }
};
struct Other : Base {
  double c;
  explicit Other(double v) : c(v) {}
  double f() const override { return c * c; }
};

__attribute__((noinline)) double visit(const Base *const *bs, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const Base *b = bs[i];
    s += b->f();
    if (auto *v = dynamic_cast<const Wave *>(b)) s += v->amp * v->freq;
    if (auto *t = dynamic_cast<const Tag *>(b))
      s += t->weight * static_cast<const Wave &>(*b).freq;
    else
      s += static_cast<const Other *>(b)->c;
  }
  const Wave &w = dynamic_cast<const Wave &>(*bs[0]);
  return s + w.freq * w.freq;
}

double energy(const double *p) {
  Wave w(p[0], p[1]);
  Other o(p[2]);
  const Base *bs[2] = {&w, &o};
  return visit(bs, 2);
}

extern int enzyme_dup;

int main() {
  double p[3] = {0.7, 1.3, -0.4}, dp[3] = {0, 0, 0};
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, p, dp);
  double a = p[0], f = p[1], c = p[2];
  fz_check("dE/da", dp[0], std::sin(f) + f + 2 * a * f, 1e-12);
  fz_check("dE/df", dp[1], a * std::cos(f) + a + a * a + 2 * f, 1e-12);
  fz_check("dE/dc", dp[2], 2 * c + 1, 1e-12);
  double fd[3];
  fz_fd_grad_of([&] { return energy(p); }, p, 3, fd);
  fz_check_arr("finite differences", dp, fd, 3, 1e-6);
  // Forward mode through the same casts: the directional derivative along v.
  double v[3] = {0.3, -1.1, 0.8};
  double jvp = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, v);
  double ga = std::sin(f) + f + 2 * a * f, gf = a * std::cos(f) + a + a * a + 2 * f, gc = 2 * c + 1;
  fz_check("forward mode", jvp, ga * v[0] + gf * v[1] + gc * v[2], 1e-12);
  return fz_finish();
}
