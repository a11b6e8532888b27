// OPT: O2
// CFLAGS: -std=c++17
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: std::vector<std::function<double (double)>
// func46: `std::reverse` of a `std::vector<std::function>` whose lambdas capture a scalar
// by reference and the parameter pointer. At -O2 each swap moves the 16 bytes of
// `_Any_data` through an `alloca { i64, i64 }` (the union retyped as a member-function
// pointer); type analysis took those integer fields as evidence, so the copies moved no
// shadow and the captured pointers' shadows stayed behind: the adjoints of `a` and `b`
// came out exchanged (d/dp[0] 0.644 for 4.903, d/dp[1] 5.498 for 1.240: a silent wrong
// derivative; forward mode crashed with SIGSEGV). An unnamed struct of wide integers is
// no evidence now (as a lone `i64` slot was not), and nothing else types the copied
// bytes (std::function's invoker and manager are called through pointers), so the copy
// is refused with a clear error. Without the `std::reverse` the program differentiates
// (tests/cxx/521).
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

using Fn = std::function<double(double)>;

double run(const double *p, int n) {
  double a = p[0], b = p[1];
  Fn f = [&a, p](double x) { return a * std::sin(x) + p[2] * x; };
  Fn g = [&b, p](double x) { return b * x * x - p[3]; };
  std::vector<Fn> v;
  v.push_back(f);
  v.push_back(g);
  std::reverse(v.begin(), v.end());
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 1) * v[k % 2](0.1 * k);
  return s + p[4];
}

int main() {
  double p[5] = {0.5, 0.9, 1.3, 0.7, 1.1}, dp[5] = {0};
  __enzyme_autodiff((void *)run, enzyme_dup, p, dp, enzyme_const, 6);
  return dp[4] == 1.0 ? 0 : 1;
}
