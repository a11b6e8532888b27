// OPT: O0
// CFLAGS: -std=c++17 -fopenmp
// EXPECT-ERROR: mismatched activity
// EXPECT-ERROR: __kmpc_fork_call
// A range-for over a `const std::map<int, double> &` passed enzyme_const, in a function
// that also runs an OpenMP parallel loop (difftest's cxx seeds 3044 and 3074, reduced).
// At -O0 the map's `begin()`/`end()` iterators are kept in stack slots that have shadows,
// so run-time activity makes them their own shadows and guards what is read back from
// shadowed memory; the parallel region, outlined and started by `__kmpc_fork_call`, is
// given such memory and is not generated under those checks. A clear compile-time error
// naming the call (not a gradient that may add adjoints into the constant map); the same
// function without the OpenMP loop is differentiated (tests/cxx/440), and so is this one
// at -O2.
#include <map>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

double f(double *x, const std::map<int, double> &tab, int n) {
  double s = 0;
  for (const auto &kv : tab) s += kv.second * x[kv.first % n];
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) t += x[i] * x[i];
  return s + t;
}

int main() {
  std::map<int, double> tab{{0, 1.0}, {3, 2.0}};
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, &tab, enzyme_const, 4);
  return dx[0] > 0 ? 0 : 1;
}
