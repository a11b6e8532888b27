// OPT: O0 O2
// CFLAGS: -std=c++17
// new/delete in the differentiated code: `new double[n]` work arrays freed with
// `delete[]`, a heap object built with `new` and destroyed with `delete`, and a
// std::unique_ptr<double[]> (RAII). Oracle: finite differences.
#include "fz_cxx.h"
#include <memory>
#include <cmath>

struct Accumulator {
  double sum = 0, sumsq = 0;
  void add(double v) {
    sum += v;
    sumsq += v * v;
  }
};

double variance_of_smoothed(const double *x, int n) {
  double *s = new double[n];
  for (int i = 0; i < n; i++) s[i] = 0.25 * x[(i + n - 1) % n] + 0.5 * x[i] + 0.25 * x[(i + 1) % n];
  std::unique_ptr<double[]> sq(new double[n]);
  for (int i = 0; i < n; i++) sq[i] = std::tanh(s[i]);
  Accumulator *acc = new Accumulator;
  for (int i = 0; i < n; i++) acc->add(sq[i]);
  double mean = acc->sum / n, var = acc->sumsq / n - mean * mean;
  delete acc;
  delete[] s;
  return var;
}

int main() {
  fz_seed(308);
  const int n = 9;
  double x[n], dx[n], fd[n];
  fz_fill(x, n, -1.5, 1.5);
  fz_zero(dx, n);
  __enzyme_autodiff((void *)variance_of_smoothed, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return variance_of_smoothed(x, n); }, x, n, fd);
  fz_check_arr("dx", dx, fd, n, 1e-6);
  return fz_finish();
}
