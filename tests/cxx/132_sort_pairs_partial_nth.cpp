// OPT: O0 O1 O2 O3
// Order statistics with `<algorithm>` over pairs, inside the differentiated function:
// `std::vector<std::pair<double, int>>` sorted by the active value (ties broken by the
// index through the pair's own `operator<`), a trimmed mean over the sorted middle,
// `std::nth_element` for the median, `std::partial_sort` with a lambda comparator on
// `|x|` for the three largest magnitudes, `std::min_element`/`std::max_element`. The
// data are distinct so every derivative is the derivative of a fixed selection. At -O0
// the pair buffer was refused (cannot-deduce-type at `v[i].second`): `std::swap<double>`,
// called on the double vector's elements and on the pairs' `first`, handed the pairs
// the array's "every offset is a double" (fixed: `TypeTree::bounded`). A
// `std::stable_sort` of pairs is cxx/138. Oracle: the
// hand-written gradient of each fixed selection, and central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <utility>
#include <vector>

#define N 9

double stats(const double *x) {
  std::vector<std::pair<double, int>> v;
  for (int i = 0; i < N; i++) v.emplace_back(x[i], i);
  std::sort(v.begin(), v.end());
  double trimmed = 0;
  for (int i = 2; i < N - 2; i++) trimmed += v[i].first * (1 + 0.1 * v[i].second);
  trimmed /= (N - 4);

  std::vector<double> c(x, x + N);
  std::nth_element(c.begin(), c.begin() + N / 2, c.end());
  double median = c[N / 2];

  std::vector<double> m(x, x + N);
  std::partial_sort(m.begin(), m.begin() + 3, m.end(),
                    [](double a, double b) { return std::fabs(a) > std::fabs(b); });
  double top3 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];

  double range = *std::max_element(x, x + N) - *std::min_element(x, x + N);

  return trimmed + 2 * median + 0.5 * top3 + range;
}

int main() {
  double x[N] = {0.3, -1.7, 2.2, 0.9, -0.4, 1.5, -2.6, 0.05, 1.1};
  double dx[N] = {0};
  __enzyme_autodiff<void>((void *)stats, enzyme_dup, x, dx);
  // fixed selections, computed independently
  int idx[N];
  for (int i = 0; i < N; i++) idx[i] = i;
  std::sort(idx, idx + N, [&](int a, int b) { return x[a] < x[b]; });
  double want[N] = {0};
  for (int r = 2; r < N - 2; r++) want[idx[r]] += (1 + 0.1 * idx[r]) / (N - 4);
  want[idx[N / 2]] += 2;
  int mag[N];
  for (int i = 0; i < N; i++) mag[i] = i;
  std::sort(mag, mag + N, [&](int a, int b) { return std::fabs(x[a]) > std::fabs(x[b]); });
  for (int r = 0; r < 3; r++) want[mag[r]] += x[mag[r]];
  want[idx[N - 1]] += 1;
  want[idx[0]] -= 1;
  fz_check_arr("analytic", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad_of([&] { return stats(x); }, x, N, fd);
  fz_check_arr("fd", dx, fd, N, 1e-6);
  return fz_finish();
}
