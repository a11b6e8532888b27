// OPT: O0 O1 O2 O3
// `std::stable_sort` of `std::vector<std::pair<int, double>>` by the integer key with a
// lambda comparator (the adaptive merge sort with a temporary buffer), inside the
// differentiated function, then a weighted sum of the payloads in sorted order; the
// keys have ties, which stable_sort keeps in input order. Oracle: the hand-written
// gradient of the fixed order and central finite differences.
#include "fz_cxx.h"
#include <algorithm>
#include <utility>
#include <vector>

#define N 9

double ranked(const double *x) {
  std::vector<std::pair<int, double>> byk;
  for (int i = 0; i < N; i++) byk.emplace_back((i * 5) % 3, x[i]);
  std::stable_sort(byk.begin(), byk.end(),
                   [](const std::pair<int, double> &a, const std::pair<int, double> &b) {
                     return a.first < b.first;
                   });
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * byk[i].second * byk[i].second;
  return s;
}

int main() {
  double x[N] = {0.3, -1.7, 2.2, 0.9, -0.4, 1.5, -2.6, 0.05, 1.1};
  double dx[N] = {0};
  __enzyme_autodiff<void>((void *)ranked, enzyme_dup, x, dx);
  // the stable order by key (i * 5) % 3, computed independently
  int order[N], k = 0;
  for (int key = 0; key < 3; key++)
    for (int i = 0; i < N; i++)
      if ((i * 5) % 3 == key) order[k++] = i;
  double want[N];
  for (int r = 0; r < N; r++) want[order[r]] = 2.0 * (r + 1) * x[order[r]];
  fz_check_arr("analytic", dx, want, N, 1e-12);
  double fd[N];
  fz_fd_grad_of([&] { return ranked(x); }, x, N, fd);
  fz_check_arr("fd", dx, fd, N, 1e-6);
  return fz_finish();
}
