// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: `std::stable_sort` with a comparator lambda capturing the input by reference: libstdc++'s `__stable_sort_adaptive` passes the comparator object (a struct holding one pointer, to the captured `x`) to `__merge_adaptive` as an `i64`, which rebuilds it with `inttoptr` and, unoptimized, copies it through stack objects and helpers returning it by value; the audit refuses the call ("a pointer passed as an integer argument ... the rebuilt pointer has no shadow"). With optimization the callee is proven to only compare through the rebuilt pointer (`audit/hidden_floats.rs` `compared_through`) and -O1..-O3 pass. A clear compile-time error, never a wrong number
// IGNORE-REF: the --ad-before-opt trial gives -O0's error (see IGNORE-O0)
// `std::stable_sort` of an index vector by active keys (|x_i|, ties kept in index
// order), then the product of the smallest and largest entries plus a rank-weighted sum.
// Oracle: the analytic gradient for the fixed order and central differences.
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

double ranked_stable(const double *x, int n) {
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int a, int b) { return std::fabs(x[a]) < std::fabs(x[b]); });
  double s = 0.5 * x[idx[0]] * x[idx[n - 1]];
  for (int r = 0; r < n; r++) s += (r + 1) * x[idx[r]];
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 7;
  double x[n] = {1.9, -0.8, 0.2, 2.7, -1.6, 1.1, -2.3}, dx[n] = {0}, fd[n], want[n] = {0};
  __enzyme_autodiff<void>((void *)ranked_stable, enzyme_dup, x, dx, enzyme_const, n);
  int idx[n];
  for (int i = 0; i < n; i++) idx[i] = i;
  for (int a = 0; a < n; a++)  // selection by |x| (distinct magnitudes: same order)
    for (int b = a + 1; b < n; b++)
      if (std::fabs(x[idx[b]]) < std::fabs(x[idx[a]])) std::swap(idx[a], idx[b]);
  for (int r = 0; r < n; r++) want[idx[r]] += r + 1;
  want[idx[0]] += 0.5 * x[idx[n - 1]];
  want[idx[n - 1]] += 0.5 * x[idx[0]];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-10);
  fz_fd_grad_of([&] { return ranked_stable(x, n); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  return fz_finish();
}
