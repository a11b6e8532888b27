// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Regression (sweep19): a range-for over a `std::vector<double>` member of an object
// passed `enzyme_const` crashed at -O0 (SIGSEGV with the base binary). `knots.begin()`
// returns a pointer into the constant object without a shadow; it is kept in the loop's
// iterator, a stack object with a shadow, so the shadow iterator held null and the
// reverse sweep added the knot's adjoint through it. The pointer is now recognised as
// computed from the constant argument alone (audit/body.rs `only_pointer_arg`) and runtime
// activity gives it itself as its shadow, with the accesses guarded. Also an index loop
// and `std::accumulate` over the same member, and forward mode.
// Oracle: d/dc_j sum_k p(t_k) = sum_k t_k^j (analytic), forward along e_j the same.
#include "fz_cxx.h"
#include <cmath>
#include <numeric>
#include <vector>

struct Curve {
  std::vector<double> knots;
  double total(const double *c) const {
    double acc = 0.0;
    for (const double &t : knots) acc += c[0] + t * (c[1] + t * (c[2] + t * c[3]));
    return acc;
  }
  double indexed(const double *c) const {
    double s = 0;
    for (size_t k = 0; k < knots.size(); k++) s += c[1] * knots[k] + c[0];
    return s;
  }
  double summed(const double *c) const {
    return c[2] * std::accumulate(knots.begin(), knots.end(), 0.0,
                                  [&](double a, double t) { return a + t * t * c[0]; });
  }
};

double total(const Curve *cv, const double *c) { return cv->total(c); }
double indexed(const Curve *cv, const double *c) { return cv->indexed(c); }
double summed(const Curve *cv, const double *c) { return cv->summed(c); }

int main() {
  const Curve cv{{0.0, 0.5, 1.25, 2.0}};
  double c[4] = {0.3, -1.2, 0.8, 0.45};
  double pw[4] = {0, 0, 0, 0};  // sum_k t_k^j
  for (double t : cv.knots)
    for (int j = 0; j < 4; j++) pw[j] += std::pow(t, j);
  double dc[4] = {0};
  __enzyme_autodiff<void>((void *)total, enzyme_const, &cv, enzyme_dup, c, dc);
  for (int j = 0; j < 4; j++) fz_check("d total / dc_j = sum t^j", dc[j], pw[j], 1e-13);
  for (int j = 0; j < 4; j++) {
    double e[4] = {0, 0, 0, 0};
    e[j] = 1;
    fz_check("forward total along e_j", __enzyme_fwddiff<double>((void *)total, enzyme_const, &cv, enzyme_dup, c, e),
             pw[j], 1e-13);
  }
  double di[4] = {0};
  __enzyme_autodiff<void>((void *)indexed, enzyme_const, &cv, enzyme_dup, c, di);
  fz_check("d indexed / dc_0 = K", di[0], 4.0, 1e-14);
  fz_check("d indexed / dc_1 = sum t", di[1], pw[1], 1e-14);
  double ds[4] = {0};
  __enzyme_autodiff<void>((void *)summed, enzyme_const, &cv, enzyme_dup, c, ds);
  fz_check("d summed / dc_0 = c_2 sum t^2", ds[0], c[2] * pw[2], 1e-13);
  fz_check("d summed / dc_2 = c_0 sum t^2", ds[2], c[0] * pw[2], 1e-13);
  return fz_finish();
}
