// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-REF: cannot-deduce-type in `std::pair<const int, double>`'s piecewise constructor (`load i32` of the histogram's key from the `tuple<int &&>`, "the value looks like Integer, the memory like Anything"; the session-26 binary stops there too once past -O0's refusal); -O0 passes since map46
// probe43: lookup tables in `std::map`: piecewise-linear interpolation in a global
// `std::map<double, double>` (upper_bound, prev, begin/end tests) and coefficients from a
// `std::map<std::string, double>` by `at`, both declared inactive (without that: a clear
// refusal, the globals are built at startup and hold pointers; `operator[]` on the
// inactive string map is refused for mismatched activity: it may insert); a local
// `std::map<int, double>` histogram of active values with structured bindings. Reverse
// (a struct of two derivatives) and forward against central differences. -O0 was
// refused until map46 (`upper_bound` of the inactive map given the key's -O0 home,
// then the histogram's `operator[](int &&)`; tests/README map46).
#include "fz_cxx.h"
#include <map>
#include <string>
extern double __enzyme_fwddiff(void *, ...);
static std::map<double, double> table = {{0.0, 1.0}, {0.5, 1.4}, {1.0, 2.1}, {2.0, 2.5}, {3.0, 4.0}};
static double interp(double t) {
  auto hi = table.upper_bound(t);
  if (hi == table.begin()) return hi->second;
  if (hi == table.end()) return std::prev(hi)->second;
  auto lo = std::prev(hi);
  double w = (t - lo->first) / (hi->first - lo->first);
  return lo->second * (1 - w) + hi->second * w;
}
static std::map<std::string, double> coef = {{"a", 0.3}, {"b", -1.2}};
void *__enzyme_inactive_global[] = {(void *)&table, (void *)&coef};
double model(double t, double s) { return interp(t) * interp(s * t) + coef.at("a") * t * t + coef.at("b") * s; }
/* a map built inside with active values */
double accum(const double *x, int n) {
  std::map<int, double> bins;
  for (int i = 0; i < n; i++) bins[(int)std::floor(std::fabs(x[i]) * 2)] += x[i] * x[i];
  double s = 0; for (auto &[k, v] : bins) s += (k + 1) * std::sqrt(v);
  return s;
}
struct G { double a, b; };
int main() {
  double t = 1.3, s = 0.8;
  G g = __enzyme_autodiff<G>((void *)model, t, s);
  fz_check("map interp dt", g.a, fz_fd([&] { return model(t, s); }, t), 1e-6);
  fz_check("map interp ds", g.b, fz_fd([&] { return model(t, s); }, s), 1e-6);
  fz_check("map fwd", __enzyme_fwddiff((void *)model, t, 1.0, s, 0.0), g.a, 1e-10);
  double x[6] = {0.3, -0.8, 1.2, 0.55, -1.4, 0.9}, dx[6] = {0}, gg[6];
  __enzyme_autodiff((void *)accum, enzyme_dup, x, dx, enzyme_const, 6);
  fz_fd_grad_of([&] { return accum(x, 6); }, x, 6, gg);
  for (int i = 0; i < 6; i++) fz_check("map accum", dx[i], gg[i], 1e-6);
  return fz_finish();
}
