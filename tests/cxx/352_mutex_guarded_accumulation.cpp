// OPT: O0 O2
// CFLAGS: -std=c++17 -pthread
// ARGS: -pthread
// Accumulation guarded by a `std::mutex` in one thread, as code written to be thread
// safe does: `std::lock_guard` around updates of a member sum, a `std::unique_lock`
// released early, and a `std::scoped_lock` (C++17) on two mutexes. The locks touch no
// active memory; the sums are differentiated. Oracle: the analytic gradient and
// central differences.
#include "fz_cxx.h"
#include <cmath>
#include <mutex>

struct Accumulator {
  std::mutex m, m2;
  double sum = 0, sq = 0;
  void add(double v) {
    std::lock_guard<std::mutex> g(m);
    sum += v;
  }
  void add_sq(double v) {
    std::unique_lock<std::mutex> l(m);
    double t = v * v;
    sq += t;
    l.unlock();
  }
  double both() {
    std::scoped_lock l(m, m2);
    return sum * sq;
  }
};

double stats(const double *x, int n) {
  Accumulator acc;
  for (int i = 0; i < n; i++) {
    acc.add(std::exp(x[i]));
    acc.add_sq(x[i]);
  }
  return acc.both();
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 5;
  double x[n] = {0.1, -0.4, 0.8, 0.25, -1.0}, dx[n] = {0}, fd[n];
  __enzyme_autodiff<void>((void *)stats, enzyme_dup, x, dx, enzyme_const, n);
  double s = 0, q = 0;
  for (int i = 0; i < n; i++) s += std::exp(x[i]), q += x[i] * x[i];
  for (int i = 0; i < n; i++) fz_check("analytic", dx[i], std::exp(x[i]) * q + s * 2 * x[i], 1e-12);
  fz_fd_grad_of([&] { return stats(x, n); }, x, n, fd);
  fz_check_arr("finite differences", dx, fd, n, 1e-6);
  return fz_finish();
}
