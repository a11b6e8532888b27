// OPT: O0 O2
// CFLAGS: -std=c++20
// Instrumentation users leave in the function they differentiate: `std::chrono::
// steady_clock::now()` around the hot loop with the elapsed time kept in a global
// `std::chrono::nanoseconds` (duration_cast, count), a global `std::atomic<long>`
// evaluation counter bumped with `fetch_add` (relaxed) and a `std::atomic<bool>` flag
// set by `exchange` the first time, a per-call `std::atomic<int>` counting the terms
// above a threshold (`++`, `load`). None of it carries a derivative; the loss is a
// soft-thresholded sum of squares. Oracle: analytic gradient, central differences,
// forward/reverse dot products; the counters after the differentiated calls.
#include "fz_cxx.h"
#include <atomic>
#include <chrono>
#include <cmath>

static std::atomic<long> evaluations{0};
static std::atomic<bool> first_seen{false};
static std::chrono::nanoseconds spent{0};
static int first_calls = 0;

double loss(const double *x, int n, int *above) {
  auto t0 = std::chrono::steady_clock::now();
  evaluations.fetch_add(1, std::memory_order_relaxed);
  if (!first_seen.exchange(true)) first_calls++;
  std::atomic<int> big{0};
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    if (v > 0.25) ++big;
    s += std::log1p(v) + 0.5 * v * x[i];
  }
  *above = big.load();
  spent += std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - t0);
  return s;
}

extern int enzyme_dup, enzyme_const;

int main() {
  const int n = 6;
  double x[n] = {0.3, -0.8, 1.2, 0.1, -0.45, 0.7}, dx[n] = {0}, fd[n], want[n];
  int above = 0;
  __enzyme_autodiff<void>((void *)loss, enzyme_dup, x, dx, enzyme_const, n, enzyme_const,
                          &above);
  for (int i = 0; i < n; i++) want[i] = 2 * x[i] / (1 + x[i] * x[i]) + 1.5 * x[i] * x[i];
  fz_check_arr("d/dx analytic", dx, want, n, 1e-12);
  fz_check("terms above the threshold", above, 3, 0);
  fz_check("one evaluation counted", double(evaluations.load()), 1, 0);
  fz_fd_grad_of([&] { return loss(x, n, &above); }, x, n, fd);
  fz_check_arr("d/dx finite differences", dx, fd, n, 1e-6);
  double v[n] = {0.5, -0.2, 0.3, 0.9, -0.6, 0.1}, dv = 0;
  for (int i = 0; i < n; i++) dv += want[i] * v[i];
  long before = evaluations.load();
  double jv = __enzyme_fwddiff<double>((void *)loss, enzyme_dup, x, v, enzyme_const, n,
                                       enzyme_const, &above);
  fz_check("forward J.v == <grad, v>", jv, dv, 1e-12);
  fz_check("forward mode counted once", double(evaluations.load() - before), 1, 0);
  fz_check("the first-call flag was taken once", first_calls, 1, 0);
  fz_check("time was measured", spent.count() >= 0 ? 1 : 0, 1, 0);
  return fz_finish();
}
