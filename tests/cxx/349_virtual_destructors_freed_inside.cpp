// OPT: O0 O2
// CFLAGS: -std=c++17
// A class hierarchy with virtual destructors whose objects are created with `new` and
// destroyed with `delete` through a base pointer inside the differentiated function:
// a derived class owning a heap array (freed by its destructor), a grandchild whose
// destructor chains to its parents', and an object deleted before the end of the
// function while a value computed from it is still used. Oracle: the analytic
// gradient and central differences.
#include "fz_cxx.h"
#include <cmath>

struct Term {
  virtual ~Term() {}
  virtual double eval() const = 0;
};

struct Poly : Term {
  double *c;
  int n;
  double x;
  Poly(const double *coef, int k, double at) : c(new double[k]), n(k), x(at) {
    for (int i = 0; i < k; i++) c[i] = coef[i];
  }
  ~Poly() override { delete[] c; }
  double eval() const override {
    double s = 0;
    for (int i = n - 1; i >= 0; i--) s = s * x + c[i];
    return s;
  }
};

struct ScaledPoly : Poly {
  double *scale;
  ScaledPoly(const double *coef, int k, double at, double s) : Poly(coef, k, at), scale(new double(s)) {}
  ~ScaledPoly() override { delete scale; }
  double eval() const override { return *scale * Poly::eval(); }
};

struct Log : Term {
  double v;
  explicit Log(double a) : v(a) {}
  double eval() const override { return std::log(v); }
};

double total(const double *p, int k) {
  Term *t[3] = {new Poly(p, k, 0.5), new ScaledPoly(p, k, -1.5, p[k]), new Log(p[k] * p[k] + 1)};
  double first = t[0]->eval();
  delete t[0];
  double s = first * first;
  for (int i = 1; i < 3; i++) {
    s += t[i]->eval();
    delete t[i];
  }
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int k = 4;
  double p[k + 1] = {0.4, -0.9, 1.2, 0.3, 1.7}, dp[k + 1] = {0}, fd[k + 1];
  __enzyme_autodiff<void>((void *)total, enzyme_dup, p, dp, enzyme_const, k);
  double P05 = 0, Pm15 = 0;
  for (int i = k - 1; i >= 0; i--) P05 = P05 * 0.5 + p[i], Pm15 = Pm15 * -1.5 + p[i];
  for (int i = 0; i < k; i++)
    fz_check("d/dc analytic", dp[i], 2 * P05 * std::pow(0.5, i) + p[k] * std::pow(-1.5, i), 1e-12);
  fz_check("d/dscale analytic", dp[k], Pm15 + 2 * p[k] / (p[k] * p[k] + 1), 1e-12);
  fz_fd_grad_of([&] { return total(p, k); }, p, k + 1, fd);
  fz_check_arr("finite differences", dp, fd, k + 1, 1e-6);
  return fz_finish();
}
