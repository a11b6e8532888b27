// OPT: O0 O2
// CFLAGS: -std=c++17
// Inheritance without virtual functions: a derived class calling base members, member
// hiding, protected state, and static polymorphism through CRTP (the base template
// calls the derived class's implementation). Oracle: finite differences.
#include "fz_cxx.h"
#include <cmath>

class Shape {
 public:
  explicit Shape(double s) : scale_(s) {}
  double scaled(double a) const { return scale_ * a; }

 protected:
  double scale_;
};

class Disk : public Shape {
 public:
  Disk(double s, double r) : Shape(s), r_(r) {}
  double area() const { return scaled(M_PI * r_ * r_); }
  double scaled(double a) const { return Shape::scaled(a) + 0.1 * scale_; }  // hides

 private:
  double r_;
};

template <typename D>
struct Energy {
  double total(const double *x, int n) const {
    double e = 0;
    for (int i = 0; i < n; i++) e += static_cast<const D *>(this)->term(x[i]);
    return e;
  }
};
struct Quartic : Energy<Quartic> {
  double k;
  double term(double v) const { return k * v * v * v * v - v * v; }
};

double model(const double *x, int n) {
  Disk d(x[0], x[1]);
  Quartic q;
  q.k = 0.25 + 0.1 * x[2];
  return d.area() + q.total(x, n);
}

int main() {
  fz_seed(321);
  const int n = 5;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1, 1);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return model(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
