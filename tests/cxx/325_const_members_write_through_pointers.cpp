// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// VARIANTS: all
// C++'s `const` is shallow: standard library members declared `const` that write active
// data through pointers they hold. Each used to be classified as an inactive library
// call at -O0 and through --ad-before-opt (its signature writes nothing but `const`
// data), a silently wrong gradient: `std::function<void()>::operator() const` running a
// lambda that updates a double captured by reference (directly, and through a helper
// taking the `std::function` by `const &`), `std::slice_array<double>`'s compound
// assignments (`operator*= const`, `+=`), and a `const std::unique_ptr<double[]> &` whose
// `operator[] const` hands out writable elements. Oracle: analytic.
#include "fz_cxx.h"
#include <cmath>
#include <functional>
#include <memory>
#include <valarray>

extern int enzyme_dup, enzyme_const, enzyme_out;

__attribute__((noinline)) static void run_twice(const std::function<void()> &g) {
  g();
  g();
}

// acc = x0 * (3 x1)^3: the lambda runs three times.
double captured(const double *x) {
  double acc = x[0];
  std::function<void()> g = [&acc, x] { acc = acc * x[1] * 3.0; };
  g();
  run_twice(g);
  return acc;
}

// Slices of a valarray updated through slice_array's const members.
double sliced(const double *x, int n) {
  std::valarray<double> c(x, n);
  c[std::slice(0, n / 2, 2)] *= std::valarray<double>(3.0, n / 2);  // even: 3 x
  c[std::slice(1, n / 2, 2)] += std::valarray<double>(c[std::slice(0, n / 2, 2)]);  // odd: x_odd + 3 x_even
  double s = 0;
  for (int i = 0; i < n; i++) s += c[i] * (i + 1);
  return s;
}

__attribute__((noinline)) static void scale(const std::unique_ptr<double[]> &p, int n, double k) {
  for (int i = 0; i < n; i++) p[i] *= k;
}

double owned(const double *x, int n) {
  std::unique_ptr<double[]> p(new double[n]);
  for (int i = 0; i < n; i++) p[i] = x[i] * x[i];
  scale(p, n, 2.5);
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main() {
  double x[2] = {0.4, 0.7}, dx[2] = {0, 0};
  __enzyme_autodiff<void>((void *)captured, enzyme_dup, x, dx);
  fz_check("captured d/dx0", dx[0], 27 * x[1] * x[1] * x[1], 1e-12);
  fz_check("captured d/dx1", dx[1], 81 * x[0] * x[1] * x[1], 1e-12);

  const int n = 6;
  double y[n] = {0.3, -0.2, 1.1, 0.5, -0.9, 0.25}, dy[n] = {0};
  __enzyme_autodiff<void>((void *)sliced, enzyme_dup, y, dy, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    // even i: 3 (i + 1) from itself, 3 (i + 2) from the odd slot after it; odd i: i + 1.
    double want = i % 2 == 0 ? 3.0 * (i + 1) + 3.0 * (i + 2) : i + 1.0;
    char b[40];
    snprintf(b, sizeof b, "sliced d/dy[%d]", i);
    fz_check(b, dy[i], want, 1e-12);
  }

  double z[3] = {0.5, -1.5, 2.0}, dz[3] = {0, 0, 0};
  __enzyme_autodiff<void>((void *)owned, enzyme_dup, z, dz, enzyme_const, 3);
  for (int i = 0; i < 3; i++) fz_check("owned", dz[i], 5.0 * z[i], 1e-12);
  return fz_finish();
}
