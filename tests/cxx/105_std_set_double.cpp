// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// Was rejected with cannot-deduce-type at the tree's `_M_node_count` (the header node is embedded in the set at offset 8, so the count and a node's double value are one location to type analysis); since stl24 typed by its struct-path `!tbaa` or, at -O0, the struct GEP of `_Rb_tree_header` (filetests list_size_struct_tbaa, list_size_struct_gep_O0).
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
