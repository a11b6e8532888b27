// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's legacy `diffe_*` marker spelling from C++ (sweep19): `diffe_dup`,
// `diffe_const` and `diffe_dupnoneed` (declared `extern int` as old tutorials do) mixed
// with the current names in one program, over a method of a struct holding a
// `std::vector<double>` of knots (passed as `diffe_const`) and a polynomial's
// coefficients (`diffe_dup`). Oracles: the analytic derivatives of the piecewise
// polynomial, and finite differences of the weighted outputs for `diffe_dupnoneed`.
#include "fz_cxx.h"
#include <cmath>
#include <vector>

extern int diffe_dup, diffe_const, diffe_dupnoneed;

struct Curve {
  std::vector<double> knots;
  // sum over knots of p(t_k) where p has degree 3 (Horner).
  double total(const double *c) const {
    double s = 0;
    for (double t : knots) s += ((c[3] * t + c[2]) * t + c[1]) * t + c[0];
    return s;
  }
  void values(double *out, const double *c) const {
    for (size_t k = 0; k < knots.size(); k++) {
      double t = knots[k];
      out[k] = std::exp(c[0] * t) + c[1] * std::sin(c[2] * t) * c[3];
    }
  }
};

double total(const Curve *cv, const double *c) { return cv->total(c); }
void values(const Curve *cv, double *out, const double *c) { cv->values(out, c); }

int main() {
  Curve cv{{0.0, 0.5, 1.25, 2.0}};
  double c[4] = {0.3, -1.2, 0.8, 0.45}, dc[4] = {0};
  __enzyme_autodiff<void>((void *)total, diffe_const, &cv, diffe_dup, c, dc);
  for (int j = 0; j < 4; j++) {
    double want = 0;
    for (double t : cv.knots) want += std::pow(t, j);
    fz_check("d total / d c_j = sum t^j", dc[j], want, 1e-13);
  }
  double w[4] = {1.0, -0.5, 2.0, 0.75}, wbar[4] = {1.0, -0.5, 2.0, 0.75}, dc2[4] = {0};
  // The output adjoint `wbar` is consumed (zeroed) by the reverse pass, as in Enzyme.
  __enzyme_autodiff<void>((void *)values, enzyme_const, &cv, diffe_dupnoneed, (double *)nullptr, wbar,
                          diffe_dup, c, dc2);
  auto weighted = [&]() {
    double out[4];
    cv.values(out, c);
    double s = 0;
    for (int k = 0; k < 4; k++) s += w[k] * out[k];
    return s;
  };
  double fd[4];
  fz_fd_grad_of(weighted, c, 4, fd);
  fz_check_arr("J^T w (diffe_dupnoneed) vs FD", dc2, fd, 4, 1e-6);
  return fz_finish();
}
