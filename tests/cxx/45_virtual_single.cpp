// OPT: O0 O2
// CFLAGS: -std=c++17
// Virtual calls with single inheritance: an abstract base with a pure virtual energy,
// two derived classes with state, objects passed as enzyme_dup (their shadows are
// objects of the same class, zero-initialized: the gradient with respect to their
// fields lands there) and as enzyme_const (no derivative for the fields). No
// hand-written shadow vtable. Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

struct Potential {
  virtual ~Potential() = default;
  virtual double energy(double r) const = 0;
};
struct Harmonic : Potential {
  double k, r0;
  Harmonic(double k_, double r0_) : k(k_), r0(r0_) {}
  double energy(double r) const override { return 0.5 * k * (r - r0) * (r - r0); }
};
struct Morse : Potential {
  double d, a, r0;
  Morse(double d_, double a_, double r0_) : d(d_), a(a_), r0(r0_) {}
  double energy(double r) const override {
    double e = 1 - std::exp(-a * (r - r0));
    return d * e * e;
  }
};

double total(const Potential *p, const Potential *q, const double *r, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p->energy(r[i]) + 0.5 * q->energy(r[i]);
  return s;
}

int main() {
  fz_seed(345);
  Harmonic h(2.0, 1.0), dh(0.0, 0.0);
  Morse m(1.5, 1.2, 0.9), dm(0.0, 0.0, 0.0);
  const int n = 4;
  double r[n], dr[n], fd[n];
  fz_fill(r, n, 0.6, 1.6);
  fz_zero(dr, n);
  // p duplicated (gradient for k, r0), q constant.
  __enzyme_autodiff((void *)total, enzyme_dup, (Potential *)&h, (Potential *)&dh, enzyme_const,
                    (Potential *)&m, enzyme_dup, r, dr, enzyme_const, n);
  auto f = [&] { return total(&h, &m, r, n); };
  fz_fd_grad_of(f, r, n, fd);
  fz_check_arr("dr", dr, fd, n, 1e-6);
  fz_check("dk", dh.k, fz_fd(f, h.k), 1e-6);
  fz_check("dr0", dh.r0, fz_fd(f, h.r0), 1e-6);
  // The other way around: the Morse object duplicated.
  fz_zero(dr, n);
  __enzyme_autodiff((void *)total, enzyme_dup, (Potential *)&m, (Potential *)&dm, enzyme_const,
                    (Potential *)&h, enzyme_dup, r, dr, enzyme_const, n);
  auto g = [&] { return total(&m, &h, r, n); };
  fz_check("dd", dm.d, fz_fd(g, m.d), 1e-6);
  fz_check("da", dm.a, fz_fd(g, m.a), 1e-6);
  fz_check("dmr0", dm.r0, fz_fd(g, m.r0), 1e-6);
  return fz_finish();
}
