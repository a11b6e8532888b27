// OPT: O0 O1 O2 O3
// probe40: Enzyme's C++ interface <enzyme/enzyme> as its documentation uses it:
// `Duplicated<double &>` (a reference and its shadow), `Duplicated<const double *>`,
// `ReverseWithPrimal` (get<0> the derivatives, get<1> the primal), forward mode with a
// `Duplicated` result (primal, tangent) and a `Const` one (the primal), forward through
// pointers, `DuplicatedNoNeed` outputs, a functor and a capturing lambda.
// Oracle: analytic derivatives.
#include <enzyme/enzyme>
#include <cmath>
#include <vector>
#include "fz_cxx.h"

static double energy(double &k, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += k * x[i] * x[i] + std::sin(x[i]);
  k *= 1.0;  // touches the reference
  return s;
}
static void scale(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) y[i] = a * x[i] * x[i];
}
struct Poly {
  double c0, c1;
  double operator()(double x) const { return c0 * x + c1 * x * x * x; }
};
static double two(double x, double y) { return x * std::cos(y) + y * y; }

int main() {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0, 0, 0};
  double k = 1.7, dk = 0;
  // Duplicated<double&> (a reference with its shadow), Duplicated<const double*>, Const<int>
  auto r = enzyme::autodiff<enzyme::Reverse>(energy, enzyme::Duplicated<double &>(k, dk),
                                             enzyme::Duplicated<const double *>(x, dx),
                                             enzyme::Const<int>(3));
  (void)r;
  double sx = 0;
  for (int i = 0; i < 3; i++) sx += x[i] * x[i];
  fz_check("Duplicated<double&>: dk", dk, sx, 1e-12);
  for (int i = 0; i < 3; i++) fz_check("dx", dx[i], 2 * k * x[i] + std::cos(x[i]), 1e-12);

  // ReverseWithPrimal: get<0> derivatives, get<1> primal
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(two, enzyme::Active<double>(0.4),
                                                        enzyme::Active<double>(-0.9));
  fz_check("RWP primal", enzyme::get<1>(rp), two(0.4, -0.9), 1e-14);
  fz_check("RWP dx", enzyme::get<0>(enzyme::get<0>(rp)), std::cos(-0.9), 1e-12);
  fz_check("RWP dy", enzyme::get<1>(enzyme::get<0>(rp)), -0.4 * std::sin(-0.9) - 1.8, 1e-12);

  // Forward: Duplicated<double> scalar tangent, Duplicated result (primal, tangent), Const result
  auto t = enzyme::autodiff<enzyme::Forward>(two, enzyme::Duplicated<double>(0.4, 1.0),
                                             enzyme::Const<double>(-0.9));
  fz_check("fwd tangent", enzyme::get<0>(t), std::cos(-0.9), 1e-12);
  auto tp = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(
      two, enzyme::Duplicated<double>(0.4, 0.0), enzyme::Duplicated<double>(-0.9, 1.0));
  fz_check("fwd dup primal", enzyme::get<0>(tp), two(0.4, -0.9), 1e-14);
  fz_check("fwd dup tangent", enzyme::get<1>(tp), -0.4 * std::sin(-0.9) - 1.8, 1e-12);
  auto tc = enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
      two, enzyme::Duplicated<double>(0.4, 1.0), enzyme::Const<double>(-0.9));
  fz_check("fwd const result = primal", enzyme::get<0>(tc), two(0.4, -0.9), 1e-14);

  // Forward mode through pointers: y = a x^2, shadows hold tangents
  double y[3], dy[3], tx[3] = {1, 0, 2};
  enzyme::autodiff<enzyme::Forward>(scale, enzyme::Duplicated<double *>(y, dy),
                                    enzyme::Duplicated<const double *>(x, tx),
                                    enzyme::Duplicated<double>(2.0, 0.5), enzyme::Const<int>(3));
  for (int i = 0; i < 3; i++)
    fz_check("fwd ptr dy", dy[i], 2.0 * 2 * x[i] * tx[i] + 0.5 * x[i] * x[i], 1e-12);

  // DuplicatedNoNeed output in reverse mode
  double yo[3], dyo[3] = {1, 2, 3}, gx[3] = {0, 0, 0};
  auto ra = enzyme::autodiff<enzyme::Reverse>(scale, enzyme::DuplicatedNoNeed<double *>(yo, dyo),
                                              enzyme::Duplicated<const double *>(x, gx),
                                              enzyme::Active<double>(2.0), enzyme::Const<int>(3));
  double da = 0;
  for (int i = 0; i < 3; i++) da += (i + 1) * x[i] * x[i];
  fz_check("dupnoneed: da", enzyme::get<0>(enzyme::get<0>(ra)), da, 1e-12);
  for (int i = 0; i < 3; i++) fz_check("dupnoneed: gx", gx[i], (i + 1) * 4.0 * x[i], 1e-12);

  // a functor and a lambda (their state constant)
  Poly p{0.5, 2.0};
  auto rf = enzyme::autodiff<enzyme::Reverse>(p, enzyme::Active<double>(1.3));
  fz_check("functor", enzyme::get<0>(enzyme::get<0>(rf)), 0.5 + 6.0 * 1.69, 1e-12);
  double w = 3.0;
  auto lam = [w](double a, double b) { return w * a * b + std::log(a); };
  auto rl = enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active<double>(2.0), enzyme::Const<double>(5.0));
  fz_check("lambda", enzyme::get<0>(enzyme::get<0>(rl)), 15.0 + 0.5, 1e-12);
  auto fl = enzyme::autodiff<enzyme::Forward>(lam, enzyme::Duplicated<double>(2.0, 1.0),
                                              enzyme::Duplicated<double>(5.0, 1.0));
  fz_check("lambda fwd", enzyme::get<0>(fl), 15.0 + 0.5 + 6.0, 1e-12);
  return fz_finish();
}
