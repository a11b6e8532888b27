// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// -O0 and --ad-before-opt pass since cxx38 (were IGNORE-O0/REF: cannot-deduce-type at the
// closures' memcpys and `_Array_copy_ctor`'s, conflicting uses through valarray's shared
// `__valarray_release_memory`; a parameter only freed is no longer linked with its callers).
// `std::valarray<double>` built from the inputs inside the differentiated function:
// element-wise expressions (`a * b + 2.0 * std::exp(-a)`), `std::slice` views assigned
// into and read from (every other element, a column of a row-major matrix),
// `std::gslice`-free strided sums, `apply` with a captureless lambda, `cshift`/`shift`,
// boolean masks selecting elements (`v[v > 0.0]`), `sum()`, `max()` and `std::pow`
// of a valarray. Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <valarray>

extern int enzyme_dup, enzyme_const, enzyme_out;

double valarr(const double *x, int n) {
  std::valarray<double> a(x, n), b(n);
  for (int i = 0; i < n; i++) b[i] = 0.5 + 0.1 * i;
  std::valarray<double> c = a * b + 2.0 * std::exp(-a);
  c[std::slice(0, n / 2, 2)] *= std::valarray<double>(3.0, n / 2);
  std::valarray<double> col = c[std::slice(1, 3, 3)];  // a 3x3 matrix's middle column
  double s = col.sum() + c.sum();

  std::valarray<double> sq = c.apply([](double v) { return v * v / (1.0 + v * v); });
  s += (sq * sq.cshift(1)).sum() + sq.shift(2).sum();

  std::valarray<double> pos = a[a > 0.0];
  s += std::pow(pos, 2.0).sum();
  std::valarray<double> neg = a[a < 0.0];
  s += neg.size() ? std::sin(neg).sum() : 0.0;
  s += 0.3 * (c * a).max();
  return s;
}

int main() {
  const int n = 9;
  double x[n] = {0.4, -0.7, 1.1, 0.25, -1.3, 0.9, -0.15, 0.6, 1.45};
  double dx[n] = {0}, want[n];
  __enzyme_autodiff<void>((void *)valarr, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return valarr(x, n); }, x, n, want);
  fz_check_arr("valarray grad", dx, want, n, 1e-6);
  return fz_finish();
}
