// OPT: O0 O1 O2 O3
// CFLAGS: -std=c++17
// std::list of (tag, active value) pairs: push_front, push_back, insert in the middle,
// erase, reverse, splice from a second list, sort by tag (std::list::sort: splices and
// merges node links), iteration forwards and backwards. The links are set by
// libstdc++.so's _List_node_base::_M_hook/_M_unhook/_M_reverse/_M_transfer, which
// Ferrozyme differentiates through definitions of its own since sweep9
// (libdefs/cxx_nodes.c; they were missing derivatives). The element's first field is an
// integer, like the list header's size at the same offset (std::list<double>: 98,
// ignored). Oracle: central finite differences.
#include "fz_cxx.h"
#include <cmath>
#include <list>
#include <utility>

using Item = std::pair<long, double>;

double model(const double *x, int n) {
  std::list<Item> l, other;
  for (int i = 0; i < n; i++) {
    if (i % 2) l.push_front({7 * i % 5, x[i]});
    else l.push_back({3 * i % 4, x[i] * 2.0});
  }
  auto it = l.begin();
  std::advance(it, 2);
  l.insert(it, {9, x[0] * x[1]});
  l.erase(l.begin());
  l.reverse();
  for (int i = 0; i < 3; i++) other.push_back({i - 5, std::sin(x[i])});
  auto mid = l.begin();
  std::advance(mid, 1);
  l.splice(mid, other);
  l.sort([](const Item &a, const Item &b) { return a.first < b.first; });
  double s = 0.0;
  int k = 1;
  for (const Item &v : l) s += k++ * v.second * v.second;
  for (auto r = l.rbegin(); r != l.rend(); ++r) s += 0.1 * (r->first + 1) * r->second;
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
