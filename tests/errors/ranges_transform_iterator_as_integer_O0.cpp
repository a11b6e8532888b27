// OPT: O0
// CFLAGS: -std=c++20
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: a pointer passed as an integer argument
// EXPECT-ERROR: compile with -O1 or higher
// `std::ranges::transform` over two ranges into an output iterator, unoptimized
// (sweep23, from tests/cxx/204): the call's sret result, `this`, and four iterators fill
// the six integer argument registers, so clang passes the output iterator (a struct
// holding one pointer) as `i64` and the callee rebuilds it with `inttoptr`. That pointer
// had no shadow: the reverse sweep added the adjoints of the written values through a
// null shadow iterator and crashed (SIGSEGV). Now an error naming the construct.
#include <algorithm>
#include <vector>

extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);

double f(const double *x, int n) {
  std::vector<double> t(x, x + n), y(x, x + n), res(n);
  std::ranges::transform(t, y, res.begin(), [](double ti, double yi) { return yi - 2 * ti; });
  double e = 0;
  for (double r : res) e += r * r;
  return e;
}

int main() {
  double x[4] = {1, 2, 3, 4}, d[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, 4);
  return d[0] > 0 ? 0 : 1;
}
