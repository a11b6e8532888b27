// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// IGNORE-O0: rejected with cannot-deduce-type ("an integer access to differentiable memory whose type is ambiguous") at the tree's `_M_node_count` in `_Rb_tree::_M_insert_`: the red-black tree's header node is embedded in the set at offset 8, so the count (offset 32 from the header) and a node's double value (offset 32 of `_Rb_tree_node<double>`) are one location to type analysis, as 98 is for `std::list<double>`, and -O0 has no `!tbaa` to type the access. -O1..-O3 and --ad-before-opt pass (checked in stl24). No wrong number.
// `std::set<double>` and `std::multiset<double>` of active values built, searched and
// iterated in the differentiated function (92 has `std::map<int, double>`). Oracle:
// central finite differences (the inputs are distinct, so the order is locally fixed).
#include "fz_cxx.h"
#include <set>

double model(const double *x, int n) {
  std::set<double> s;
  std::multiset<double> m;
  for (int i = 0; i < n; i++) {
    s.insert(x[i] * x[i]);
    m.insert(x[i] + 1.0);
    m.insert(x[i] + 1.0);
  }
  double acc = 0;
  int k = 1;
  for (double v : s) acc += k++ * v;
  auto it = s.lower_bound(0.5);
  if (it != s.end()) acc += *it * *it;
  for (double v : m) acc += std::sin(v);
  return acc + *s.rbegin() * *m.begin();
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -1.1, 0.8, 1.4, -0.55}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  auto f = [&] { return model(x, n); };
  for (int i = 0; i < n; i++) fz_check("set dx", dx[i], fz_fd(f, x[i]), 1e-6);
  return fz_finish();
}
