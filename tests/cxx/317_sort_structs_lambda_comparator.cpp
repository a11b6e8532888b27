// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++20
// Sorting records that carry active values: `std::sort` of a vector of structs with a
// lambda comparator on an integer key (the permutation is data), on the active value
// itself (piecewise: the derivative follows the value wherever it lands), a capturing
// comparator (distance to an active centre), `std::stable_sort` by a derived key,
// `std::ranges::sort` with a lambda projection (a data-member
// pointer projection `&Rec::val` is tests/errors/ranges_sort_member_pointer_projection.cpp), and `std::nth_element` / `std::partial_sort`
// picking the smallest values. Oracle: central finite differences (the inputs are far
// from ties, so the order is constant near them).
#include "fz_cxx.h"
#include <algorithm>
#include <cmath>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;

struct Rec {
  int id;
  double val;
  double wt;
};

double ranked(const double *x, int n) {
  std::vector<Rec> r;
  for (int i = 0; i < n; i++) r.push_back({(i * 5) % n, x[i], 1.0 + 0.1 * i});
  std::sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.id < b.id; });
  double acc = 0;
  for (int i = 0; i < n; i++) acc += r[i].val * (i + 1);

  std::sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.val > b.val; });
  for (int i = 0; i < n; i++) acc += r[i].val * r[i].val / (i + 1) * r[i].wt;

  double centre = 0.5 * (x[0] + x[1]);
  std::sort(r.begin(), r.end(), [&centre](const Rec &a, const Rec &b) {
    return std::fabs(a.val - centre) < std::fabs(b.val - centre);
  });
  for (int i = 0; i < 3; i++) acc += std::sin(r[i].val - centre);

  std::stable_sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.id % 3 < b.id % 3; });
  for (int i = 0; i < n; i++) acc += 0.01 * (i + 1) * r[i].val;

  std::ranges::sort(r, std::less<>{}, [](const Rec &a) { return a.val; });
  acc += r.front().val * r.back().val;

  std::vector<double> v(x, x + n);
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  acc += 3.0 * v[n / 2];
  std::partial_sort(v.begin(), v.begin() + 3, v.end(), [](double a, double b) { return a * a < b * b; });
  acc += v[0] * v[1] * v[2];
  return acc;
}

int main() {
  const int n = 9;
  double x[n] = {0.31, -1.27, 0.88, 2.05, -0.46, 1.52, -2.11, 0.07, 1.19};
  double dx[n] = {0}, want[n];
  __enzyme_autodiff<void>((void *)ranked, enzyme_dup, x, dx, enzyme_const, n);
  fz_fd_grad_of([&] { return ranked(x, n); }, x, n, want);
  fz_check_arr("ranked grad", dx, want, n, 1e-6);
  return fz_finish();
}
