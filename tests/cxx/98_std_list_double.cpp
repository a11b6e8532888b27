// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// std::list<double> was rejected with cannot-deduce-type at `_List_base::_M_inc_size`: the list header's size (an i64 at offset 16) and a node's double value (offset 16 of `_List_node<double>`) are one location to type analysis, both reached through `_List_node_base` pointers. Since stl24 the size accesses are typed by their struct-path `!tbaa` ({_List_base, long, 16}; -O1..-O3, filetest list_size_struct_tbaa) or, at -O0, by the struct GEP selecting the `i64` member (filetest list_size_struct_gep_O0).
// std::list<double> holding active doubles (97 has the same with std::pair<long, double> elements, which passes): push_front, push_back, insert in the middle, erase,
// reverse, iteration. Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <list>

double model(const double *x, int n) {
  std::list<double> l;
  for (int i = 0; i < n; i++) {
    if (i % 2) l.push_front(x[i]); else l.push_back(x[i] * 2.0);
  }
  auto it = l.begin();
  std::advance(it, 2);
  l.insert(it, x[0] * x[1]);
  l.erase(l.begin());
  l.reverse();
  double s = 0.0;
  int k = 1;
  for (double v : l) s += k++ * v * v;

  return s;
}

int main() {
  const int n = 5;
  double x[n] = {0.3, -0.6, 0.9, 0.2, -0.4}, dx[n] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    auto f = [&] { return model(x, n); };
    fz_check("dx", dx[i], fz_fd(f, x[i]), 1e-6);
  }
  return fz_finish();
}
