// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// A dense Jacobian as Enzyme users assemble it in C++: an ODE right-hand side written as
// a class holding parameters in a std::vector<double>, applied through a free function
// taking `const std::vector<double> &` state and `std::vector<double> &` output
// (std::transform with a lambda, std::inner_product, a range-for); columns by
// __enzyme_fwddiff with enzyme_dupnoneed on the output vector (a tangent vector of the
// same size), rows by __enzyme_autodiff seeded through the output's shadow. Oracles:
// central finite differences per column, and rows = columns transposed.
#include "fz_cxx.h"
#include <algorithm>
#include <numeric>
#include <vector>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;

struct Rhs {
  std::vector<double> k; // rates
  double coupling;
  void apply(const std::vector<double> &y, std::vector<double> &dy) const {
    std::transform(y.begin(), y.end(), k.begin(), dy.begin(),
                   [](double yi, double ki) { return -ki * yi * yi; });
    double total = std::inner_product(y.begin(), y.end(), k.begin(), 0.0);
    size_t i = 0;
    for (double &d : dy) {
      d += coupling * std::sin(total) * y[(i + 1) % y.size()];
      ++i;
    }
  }
};

void rhs(const Rhs *r, const std::vector<double> *y, std::vector<double> *dy) {
  r->apply(*y, *dy);
}

int main() {
  const int n = 4;
  Rhs r{{0.5, 1.0, 1.5, 0.25}, 0.3};
  std::vector<double> y{1.0, -0.5, 0.75, 2.0}, out(n);
  double J[n][n];
  for (int j = 0; j < n; j++) {
    std::vector<double> ty(n, 0.0), tout(n, 0.0), scratch(n);
    ty[j] = 1.0;
    __enzyme_fwddiff<void>((void *)rhs, enzyme_const, &r, enzyme_dup, &y, &ty, enzyme_dupnoneed,
                           &scratch, &tout);
    for (int i = 0; i < n; i++) J[i][j] = tout[i];
    // finite differences of column j
    double h = 1e-6, y0 = y[j];
    std::vector<double> fp(n), fm(n);
    y[j] = y0 + h;
    rhs(&r, &y, &fp);
    y[j] = y0 - h;
    rhs(&r, &y, &fm);
    y[j] = y0;
    char b[48];
    for (int i = 0; i < n; i++) {
      snprintf(b, sizeof b, "fwd J[%d][%d]", i, j);
      fz_check(b, J[i][j], (fp[i] - fm[i]) / (2 * h), 1e-6);
    }
  }
  for (int i = 0; i < n; i++) {
    std::vector<double> by(n, 0.0), bout(n, 0.0);
    bout[i] = 1.0;
    __enzyme_autodiff<void>((void *)rhs, enzyme_const, &r, enzyme_dup, &y, &by, enzyme_dup, &out,
                            &bout);
    char b[48];
    for (int j = 0; j < n; j++) {
      snprintf(b, sizeof b, "rev row %d col %d", i, j);
      fz_check(b, by[j], J[i][j], 1e-12);
    }
  }
  return fz_finish();
}
