// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Enzyme's C++ interface: ReverseWithPrimal (derivatives and the result, the function
// run once: it counts its calls), a void function in ReverseWithPrimal, a lambda with
// captures, a functor with overloaded operator() (double and float), a function pointer
// held in a variable, and a captureless lambda converted to a function pointer (`+`).
// Oracles: analytic.
#include <enzyme/enzyme>
#include "fz_cxx.h"
#include <cmath>

static int calls = 0;
double counted(double x, double y) {
  calls++;
  return x * x * y + std::log(y);
}
void accumulate(double *acc, const double *x, int n) {
  for (int i = 0; i < n; i++) acc[0] += x[i] * x[i];
}
struct Overload {
  double operator()(double x) { return x * 10; }
  float operator()(float x) { return x * 2; }
};
double cube(double x) { return x * x * x; }

int main() {
  fz_seed(320);
  double x = fz_uniform(0.5, 1.5), y = fz_uniform(0.5, 1.5);
  calls = 0;
  auto r = enzyme::autodiff<enzyme::ReverseWithPrimal>(counted, enzyme::Active{x}, enzyme::Active{y});
  fz_check("calls", calls, 1, 0);
  fz_check("primal", enzyme::get<1>(r), x * x * y + std::log(y), 1e-14);
  fz_check("dx", enzyme::get<0>(enzyme::get<0>(r)), 2 * x * y, 1e-12);
  fz_check("dy", enzyme::get<1>(enzyme::get<0>(r)), x * x + 1 / y, 1e-12);

  double acc = 1.0, dacc = 1.0, v[3] = {1, 2, 3}, dv[3] = {0, 0, 0};
  auto rv = enzyme::autodiff<enzyme::ReverseWithPrimal>(accumulate, enzyme::Duplicated<double *>{&acc, &dacc},
                                                        enzyme::Duplicated<const double *>{v, dv},
                                                        enzyme::Const{3});
  (void)rv;
  fz_check("void primal effect", acc, 15.0, 0);
  for (int i = 0; i < 3; i++) fz_check("void dv", dv[i], 2 * v[i], 1e-12);

  double k = 0.25;
  auto lam = [&k](double a, double b) { return k * a * b * b; };
  auto rl = enzyme::autodiff<enzyme::Reverse>(lam, enzyme::Active{x}, enzyme::Active{y});
  fz_check("lambda da", enzyme::get<0>(enzyme::get<0>(rl)), k * y * y, 1e-12);
  fz_check("lambda db", enzyme::get<1>(enzyme::get<0>(rl)), 2 * k * x * y, 1e-12);

  auto ro = enzyme::autodiff<enzyme::Reverse>(Overload{}, enzyme::Active<double>(3.1));
  auto rof = enzyme::autodiff<enzyme::Reverse>(Overload{}, enzyme::Active<float>(3.1f));
  fz_check("overload double", enzyme::get<0>(enzyme::get<0>(ro)), 10, 1e-12);
  fz_check("overload float", enzyme::get<0>(enzyme::get<0>(rof)), 2, 1e-6);

  double (*fp)(double) = cube;
  auto rfp = enzyme::autodiff<enzyme::ReverseWithPrimal>(fp, enzyme::Active{x});
  fz_check("fn pointer d", enzyme::get<0>(enzyme::get<0>(rfp)), 3 * x * x, 1e-12);
  fz_check("fn pointer primal", enzyme::get<1>(rfp), x * x * x, 1e-14);

  auto rplus = enzyme::autodiff<enzyme::Reverse>(+[](double a) { return std::sin(a) * a; }, enzyme::Active{x});
  fz_check("+lambda", enzyme::get<0>(enzyme::get<0>(rplus)), std::cos(x) * x + std::sin(x), 1e-12);
  return fz_finish();
}
