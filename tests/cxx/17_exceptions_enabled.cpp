// OPT: O0 O2
// CFLAGS: -std=c++17 -fexceptions
// IGNORE-O0: needs nested pointee trees in type analysis without nested pointee trees (switched off this stop: too slow on Rust debug builds, see types.rs MAX_DEPTH) cannot type this unoptimized code: cannot-deduce-type
// Code compiled with exceptions enabled where nothing is thrown on the differentiated
// path: calls into functions with IR become `invoke`s with cleanup landing pads (RAII
// objects whose destructors run on unwinding), a try/catch around a call that does not
// throw, and a function that may throw on bad input (the check is false here).
// Oracle: finite differences.
#include "fz_cxx.h"
#include <stdexcept>
#include <vector>
#include <cmath>

struct Guard {
  int *counter;
  explicit Guard(int *c) : counter(c) { ++*counter; }
  ~Guard() { --*counter; }
};

__attribute__((noinline)) double checked_log(double x) {
  if (!(x > 0)) throw std::domain_error("log of a non-positive number");
  return std::log(x);
}

__attribute__((noinline)) double weighted(const std::vector<double> &w, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i % w.size()] * checked_log(1.0 + x[i] * x[i]);
  return s;
}

double objective(const double *x, int n) {
  static int depth = 0;
  Guard g(&depth);
  std::vector<double> w = {1.0, 0.5, 2.0};
  double r;
  try {
    r = weighted(w, x, n);
  } catch (const std::exception &) {
    r = 0;
  }
  return r + checked_log(2.0 + x[0]);
}

int main() {
  fz_seed(317);
  const int n = 5;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1, 1);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return objective(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
