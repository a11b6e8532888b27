// OPT: O0 O1 O2 O3
// VARIANTS: all
// Regression (sweep18): a `std::vector<std::unique_ptr<Term>>` grown by `push_back` inside
// the differentiated function. At -O1 clang stores each `unique_ptr` into the buffer as
// `store i64 (ptrtoint p)` (tagged `p1 _ZTS4Term`) and moves the elements on growth as
// `load i64`/`store i64`: the shadow buffer kept null pointers and the reverse sweep's
// virtual call through one crashed (SIGSEGV with the base binary at -O1..-O3: -O2/-O3
// store the new element the same way; cxx/139's crash at -O1).
// Terms of three classes, one with an `int` field where the others have a `double`
// (`Power`'s exponent), which -O0 and the `--ad-before-opt` trial refused until sweep19
// (offset 8/16 of a `Term` typed both `int` and `double` through the one `Term *`; the
// ints now traced through `make_unique`'s `int &&` slots). Reverse and forward mode
// against the analytic gradient and finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <memory>
#include <vector>

struct Term {
  virtual ~Term() = default;
  virtual double eval(const double *x) const = 0;
};
struct Scale : Term {
  double a;
  int i;
  Scale(double a, int i) : a(a), i(i) {}
  double eval(const double *x) const override { return a * x[i]; }
};
struct Power : Term {
  int n;
  int i;
  double c;
  Power(int n, int i, double c) : n(n), i(i), c(c) {}
  double eval(const double *x) const override { return c * std::pow(x[i], n); }
};
struct Prod : Term {
  double w;
  int i, j;
  Prod(double w, int i, int j) : w(w), i(i), j(j) {}
  double eval(const double *x) const override { return w * x[i] * x[j] + std::sin(x[j]); }
};

double energy(const double *x) {
  std::vector<std::unique_ptr<Term>> terms;
  for (int k = 0; k < 3; k++) {
    terms.push_back(std::make_unique<Scale>(0.5 + k, k));
    terms.push_back(std::make_unique<Power>(k + 2, k, x[3]));
    terms.push_back(std::make_unique<Prod>(x[(k + 1) % 4], k, (k + 2) % 4));
  }
  double e = 0;
  for (const auto &t : terms) e += t->eval(x);
  return e;
}

// The same sum written out.
static void analytic(const double *x, double *g) {
  for (int i = 0; i < 4; i++) g[i] = 0;
  for (int k = 0; k < 3; k++) {
    g[k] += 0.5 + k;
    int n = k + 2;
    g[k] += x[3] * n * std::pow(x[k], n - 1);
    g[3] += std::pow(x[k], n);
    int a = (k + 1) % 4, j = (k + 2) % 4;
    double w = x[a];
    g[a] += x[k] * x[j];
    g[k] += w * x[j];
    g[j] += w * x[k] + std::cos(x[j]);
  }
}

int main() {
  double x[4] = {0.7, -1.1, 0.4, 1.3}, dx[4] = {0}, fd[4], an[4];
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, dx);
  fz_fd_grad_of([&] { return energy(x); }, x, 4, fd);
  analytic(x, an);
  fz_check_arr("reverse vs analytic", dx, an, 4, 1e-10);
  fz_check_arr("reverse vs fd", dx, fd, 4, 1e-6);
  double v[4] = {0.3, -0.2, 0.9, 0.5}, dir = 0;
  for (int i = 0; i < 4; i++) dir += an[i] * v[i];
  double t = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, x, v);
  fz_check("forward vs analytic", t, dir, 1e-10);
  return fz_finish();
}
