// OPT: O0 O2
// CFLAGS: -std=c++20
// EXPECT-ERROR: cannot-deduce-type
// EXPECT-ERROR: 3Rec
// `std::ranges::sort` of a vector of records `{int id; double val; double wt;}` with a
// data-member pointer as the projection (`&Rec::val`): the projection is a byte offset
// kept in memory and added at run time, so type analysis cannot tell which member each
// access reaches and the records' memory is typed `Anything`: the copies and integer
// moves of the sort cannot be typed. A clear error, not a guess; a lambda projection
// works (tests/cxx/317).
#include <algorithm>
#include <functional>
#include <vector>

struct Rec {
  int id;
  double val;
  double wt;
};

double ranked(const double *x, int n) {
  std::vector<Rec> r;
  for (int i = 0; i < n; i++) r.push_back({(i * 5) % n, x[i], 1.0 + 0.1 * i});
  std::ranges::sort(r, std::less<>{}, &Rec::val);
  double acc = 0;
  for (int i = 0; i < n; i++) acc += r[i].val * (i + 1) * r[i].wt + r[i].id;
  return acc;
}

extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);

int main() {
  double x[5] = {0.3, -1.2, 0.8, 2.0, -0.4}, dx[5] = {0};
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx, enzyme_const, 5);
  return dx[0] != 0 ? 0 : 1;
}
